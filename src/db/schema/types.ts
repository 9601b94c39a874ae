/** 0 or 1: see the storage conventions in `../schema.ts`. */
export type Bool = number;
