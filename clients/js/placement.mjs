// owner(key, backends) of insika-router's ketama and rendezvous strategies: the reference in JavaScript.
//
// Spec: docs/strategies.md. backends is an array of {id, weight}; the id is what the router hashes
// (host:port, or the placement id given to it). Ketama is its default mode (compat: none).
//
// import { ketamaOwner, rendezvousOwner } from './placement.mjs';   (rendezvousOwner is async:
//   xxHash64 comes from the xxhash-wasm package, npm install in this directory)
// node placement.mjs --check VECTORS.json   verify docs/placement-vectors.json; exit 1 on a mismatch
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const MASK = (1n << 64n) - 1n;
const byId = (a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

function md5(text) {
  return createHash('md5').update(Buffer.from(text, 'utf8')).digest();
}

/** The owner of key on libketama's continuum, 40 x weight digests of 4 points per backend. */
export function ketamaOwner(key, backends) {
  if (backends.length === 0) return null;
  if (backends.length === 1) return backends[0].id;
  const points = [];
  for (const backend of [...backends].sort(byId)) {
    for (let k = 0; k < 40 * backend.weight; k++) {
      const digest = md5(`${backend.id}-${k}`);
      for (let h = 0; h < 4; h++) points.push({ point: digest.readUInt32LE(4 * h), id: backend.id });
    }
  }
  points.sort((a, b) => a.point - b.point || byId(a, b)); // equal points: the smaller id first
  const hash = md5(key).readUInt32LE(0);
  let low = 0;
  let high = points.length;
  while (low < high) { // the first point >= hash
    const middle = (low + high) >>> 1;
    if (points[middle].point < hash) low = middle + 1; else high = middle;
  }
  return points[low % points.length].id;
}

function fmix64(k) {
  k ^= k >> 33n;
  k = (k * 0xff51afd7ed558ccdn) & MASK;
  k ^= k >> 33n;
  k = (k * 0xc4ceb9fe1a85ec53n) & MASK;
  return k ^ (k >> 33n);
}

let xxhash;

/** The backend with the highest -weight / ln(h) score for key. */
export async function rendezvousOwner(key, backends) {
  if (backends.length === 0) return null;
  xxhash ??= await (await import('xxhash-wasm')).default();
  const hash = (text) => xxhash.h64Raw(Buffer.from(text, 'utf8'));
  const keyHash = hash(key);
  let best = null;
  for (const backend of [...backends].sort(byId)) {
    const x = fmix64(keyHash ^ hash(backend.id));
    const rank = x >> 11n;
    const score = -backend.weight / Math.log((Number(rank) + 0.5) * 2 ** -53);
    // highest score, then the larger rank, then the smaller id (sorted: the first wins a full tie)
    if (best === null || score > best.score || (score === best.score && rank > best.rank)) {
      best = { score, rank, id: backend.id };
    }
  }
  return best.id;
}

async function check(path) {
  const vectors = JSON.parse(readFileSync(path, 'utf8'));
  let count = 0;
  let failures = 0;
  for (const set of vectors.sets) {
    for (const owner of set.owners) {
      for (const [strategy, actual] of [['ketama', ketamaOwner(owner.key, set.backends)],
        ['rendezvous', await rendezvousOwner(owner.key, set.backends)]]) {
        count++;
        if (actual !== owner[strategy]) {
          failures++;
          console.log(`${set.name} ${strategy} ${JSON.stringify(owner.key)}: ${actual} (expected: ${owner[strategy]})`);
        }
      }
    }
  }
  console.log(`${count} owners, ${failures} mismatches`);
  return failures ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv.length === 4 && process.argv[2] === '--check') {
    process.exitCode = await check(process.argv[3]);
  } else {
    console.error('usage: node placement.mjs --check VECTORS.json');
    process.exitCode = 2;
  }
}
