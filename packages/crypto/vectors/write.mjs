// Regenerates vf1.json from src/vectors.ts. Run: npx tsx packages/crypto/vectors/write.mjs
// Only when the format changes on purpose; vectors.test.ts fails until the JSON matches.
import { writeFileSync } from 'node:fs';
import { buildVectors } from '../src/vectors.ts';

const vectors = await buildVectors();
writeFileSync(new URL('./vf1.json', import.meta.url), JSON.stringify(vectors, null, 2) + '\n');
console.log('wrote vf1.json');
