export const V = 1;
