// Route tokens of insika-router, version 1: the reference implementation in JavaScript (Node.js).
//
// Spec (docs/route-tokens.md):
//   hash: "h1" + base64url(SHA-256(utf8(key))[0..16)), unpadded
//   hmac: "k1" + base64url(HMAC-SHA-256(secret, utf8(key))[0..16)), unpadded
//
// import { hashToken, hmacToken } from './route-token.mjs';
// node route-token.mjs KEY                    print the hash token
// node route-token.mjs --secret-file F KEY    print the hmac token (F less one trailing newline)
// node route-token.mjs --check VECTORS.json   verify docs/route-token-vectors.json; exit 1 on a mismatch
// Node's own crypto only. In a browser, crypto.subtle.digest('SHA-256', ...) gives the same bytes.
import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export const MIN_SECRET_BYTES = 16;

// A high surrogate not followed by a low one, or a low one not after a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function utf8(key) {
  // Buffer.from would turn a lone surrogate into U+FFFD; the spec refuses such a key instead.
  if (LONE_SURROGATE.test(key)) {
    throw new TypeError('key: not valid Unicode (a lone surrogate)');
  }
  return Buffer.from(key, 'utf8');
}

function encode(digest) {
  return digest.subarray(0, 16).toString('base64url');
}

export function hashToken(key) {
  return 'h1' + encode(createHash('sha256').update(utf8(key)).digest());
}

export function hmacToken(secret, key) {
  if (secret.length < MIN_SECRET_BYTES) {
    throw new RangeError(`secret: ${secret.length} bytes (expected: at least ${MIN_SECRET_BYTES})`);
  }
  return 'k1' + encode(createHmac('sha256', secret).update(utf8(key)).digest());
}

function readSecret(path) {
  const data = readFileSync(path);
  if (data.length >= 2 && data[data.length - 2] === 0x0d && data[data.length - 1] === 0x0a) {
    return data.subarray(0, data.length - 2);
  }
  return data.length >= 1 && data[data.length - 1] === 0x0a ? data.subarray(0, data.length - 1) : data;
}

function check(path) {
  const vectors = JSON.parse(readFileSync(path, 'utf8'));
  const secret = Buffer.from(vectors.secret, 'utf8');
  let failures = 0;
  for (const vector of vectors.vectors) {
    for (const [form, actual] of [['hash', hashToken(vector.key)], ['hmac', hmacToken(secret, vector.key)]]) {
      if (actual !== vector[form]) {
        console.log(`${form} of ${JSON.stringify(vector.key)}: ${actual} (expected: ${vector[form]})`);
        failures++;
      }
    }
  }
  console.log(`${vectors.vectors.length} vectors, ${failures} mismatches`);
  return failures ? 1 : 0;
}

function main(args) {
  if (args.length === 2 && args[0] === '--check') {
    return check(args[1]);
  }
  if (args.length === 3 && args[0] === '--secret-file') {
    console.log(hmacToken(readSecret(args[1]), args[2]));
    return 0;
  }
  if (args.length === 1) {
    console.log(hashToken(args[0]));
    return 0;
  }
  console.error('usage: node route-token.mjs [--secret-file FILE] KEY | --check VECTORS.json');
  return 2;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = main(process.argv.slice(2));
}
