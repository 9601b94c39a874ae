/** Small helpers shared by the modules of `npm run bench`. */

/** Progress goes to stderr; stdout carries only the report. */
export const log = (line: string) => process.stderr.write(`${line}\n`);
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
