export * from './client';
export * from './budget';
export * from './pools';
export * from './http-errors';
export * from './path-family';
