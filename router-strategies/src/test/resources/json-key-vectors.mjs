// The json-field vectors as Node reads them: for every row of a table such as
// json-key-vectors.json, the key JSON.parse gives for its field or pointer must be the row's key.
// Prints "N rows, M mismatches", then each mismatch. Run: node json-key-vectors.mjs TABLE
import { readFileSync } from 'node:fs';

const INDEX = /^(0|[1-9][0-9]*)$/;

// RFC 6901: ~1 before ~0, so that ~01 stays the text "~1".
const unescape = (token) => token.replaceAll('~1', '/').replaceAll('~0', '~');

function path(row) {
  if (row.field !== undefined) {
    return [{ name: row.field, index: false }];
  }
  return row.pointer.slice(1).split('/').map(unescape).map((name) => ({ name, index: INDEX.test(name) }));
}

function valueAt(body, steps) {
  let node;
  try {
    node = JSON.parse(body);
  } catch {
    return undefined; // not JSON: no key
  }
  for (const step of steps) {
    if (Array.isArray(node)) {
      if (!step.index || Number(step.name) >= node.length) {
        return undefined;
      }
      node = node[Number(step.name)];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, step.name)) {
      node = node[step.name];
    } else {
      return undefined;
    }
  }
  return node;
}

// The router's rule: a non-blank string, or a number as String() writes it; anything else is no key.
function keyOf(value) {
  if (typeof value === 'string') {
    return value.trim() === '' ? null : value;
  }
  return typeof value === 'number' ? String(value) : null;
}

const table = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const mismatches = [];
for (const row of table.rows) {
  const key = keyOf(valueAt(row.body, path(row)));
  if (key !== row.key) {
    mismatches.push(`${row.why}: ${JSON.stringify(row.body)} gives ${JSON.stringify(key)}, the table says ${JSON.stringify(row.key)}`);
  }
}
console.log(`${table.rows.length} rows, ${mismatches.length} mismatches`);
mismatches.forEach((line) => console.log(line));
