/**
 * The Unicode version the generated tables follow (scripts/gen-unicode.mjs writes it into each
 * table's header). Node's regex engine may follow another: `process.versions.unicode`.
 */
export const TABLES_UNICODE_VERSION = "17.0";
