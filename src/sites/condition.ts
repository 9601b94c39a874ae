/**
 * Visitor conditions of site spaces and sections: JavaScript expressions (evaluated per visitor by the
 * published site, e.g. `visitor.claims.plan === "pro"`). They are parsed here with acorn so a
 * malformed one is refused when written, with the parser's own words and position.
 */
import { parseExpressionAt } from 'acorn';
import { badRequest } from '../core/errors.js';

/** Throws a 400 naming `field` unless `source` is exactly one JavaScript expression. */
export function assertExpression(source: string, field: string): void {
  let end: number;
  try {
    end = parseExpressionAt(source, 0, { ecmaVersion: 'latest' }).end;
  } catch (error) {
    throw badRequest(`${field} is not a valid expression: ${(error as Error).message}`);
  }
  // parseExpressionAt stops after the first expression; anything but whitespace after it is an error.
  const rest = source.slice(end);
  if (rest.trim() !== '') {
    throw badRequest(`${field} is not a valid expression: unexpected "${rest.trim().slice(0, 20)}" at ${end + 1}`);
  }
}
