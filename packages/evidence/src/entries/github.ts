export const G = 1;
