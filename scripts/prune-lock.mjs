// Drops from package-lock.json the optional dependencies that have no entry of their own (platform
// builds the registry this project installs from does not carry, e.g. Biome's non-Linux binaries),
// which would otherwise make `npm ci` refuse the lock file. Run after `npm install` changes the lock.
import fs from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, 'utf8'));
const packages = lock.packages;
let pruned = 0;
for (const entry of Object.values(packages)) {
  for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
    const present = Object.keys(packages).some((key) => key === `node_modules/${dep}` || key.endsWith(`/node_modules/${dep}`));
    if (!present) {
      delete entry.optionalDependencies[dep];
      pruned++;
    }
  }
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`pruned ${pruned} optional dependencies without a lock entry`);
