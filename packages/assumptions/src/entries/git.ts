export const GIT = 1;
