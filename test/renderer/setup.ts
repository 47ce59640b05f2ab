/** Lets pending promise chains settle (component re-renders after a store change). */
export const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 0));
};
