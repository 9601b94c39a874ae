/** Visitor conditions are interpreted, never run: what they may read, compute and call. */
import { describe, expect, it } from 'vitest';
import { conditionHolds } from '../../src/sites/condition.js';

const visitor = {
  claims: {
    plan: 'pro',
    seats: 12,
    roles: ['admin', 'editor'],
    beta: true,
    email: 'ada@example.com',
    unsigned: { lang: 'fr' },
  },
};

describe('conditionHolds', () => {
  it.each([
    ['visitor.claims.plan === "pro"', true],
    ['visitor.claims.plan === "free"', false],
    ['visitor.claims.plan !== "free" && visitor.claims.seats >= 10', true],
    ['visitor.claims.seats > 100 || visitor.claims.beta', true],
    ['!visitor.claims.beta', false],
    ['visitor.claims.roles.includes("admin")', true],
    ['visitor.claims.roles.includes("owner")', false],
    ['visitor.claims.email.endsWith("@example.com")', true],
    ['visitor.claims["plan"] == "pro"', true],
    ['visitor.claims.unsigned.lang === "fr"', true],
    ['visitor.claims.missing === undefined', true],
    ['visitor.claims.missing?.deep === undefined', true],
    ['visitor.claims.missing.deep === undefined', true],
    ['"plan" in visitor.claims', true],
    ['visitor.claims.roles.length === 2', true],
    ['["pro", "team"].includes(visitor.claims.plan)', true],
    ['visitor.claims.seats > 10 ? true : false', true],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the condition is itself a template literal
    ['`${visitor.claims.plan}-x` === "pro-x"', true],
    ['', true],
  ])('%s → %s', (condition, expected) => {
    expect(conditionHolds(condition, visitor)).toBe(expected);
  });

  it('a null condition always holds', () => {
    expect(conditionHolds(null, { claims: {} })).toBe(true);
  });

  it.each([
    // Nothing outside the visitor's own claims is reachable: prototypes, globals, constructors.
    'visitor.constructor.constructor("return process")()',
    'visitor.claims.__proto__ !== undefined',
    'visitor.claims.toString !== undefined',
    'process.exit(1)',
    'globalThis',
    'visitor.claims.roles.map((r) => r)',
    '(() => true)()',
    'visitor.claims.plan = "pro"',
    'new Date()',
    // Not an expression at all.
    'visitor.claims.plan ===',
  ])('refuses %s (the content stays hidden)', (condition) => {
    expect(conditionHolds(condition, visitor)).toBe(false);
  });
});
