/** Every migration, in the order it runs. Add new ones at the end with the next number. */
import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.js';
import * as m0002 from './0002_spaces_collections.js';
import * as m0004 from './0004_content.js';

export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
  '0002_spaces_collections': m0002,
  '0004_content': m0004,
};
