// Generate src/records.ts (TypeScript types) from schema/records.schema.json, which Python exports from its
// pydantic records (`python -m mcp_lab.record_schema`). `--check` fails instead of writing when the file is stale.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemaPath = join(root, 'schema', 'records.schema.json');
const outPath = join(root, 'src', 'records.ts');

const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
const banner =
  '/* Generated from schema/records.schema.json by scripts/types.mjs (json-schema-to-typescript).\n' +
  ' * Do not edit: change the pydantic records (mcp_lab/<feature>/record.py), then run `python -m mcp_lab.record_schema`\n' +
  ' * and `jlpm build:types`. */';
const ts = await compile(schema, 'McpLabRecords', {
  bannerComment: banner,
  additionalProperties: false,
  unreachableDefinitions: true,
  strictIndexSignatures: true,
  format: true,
  style: { singleQuote: true, printWidth: 120 }
});

if (process.argv.includes('--check')) {
  const current = existsSync(outPath) ? readFileSync(outPath, 'utf8') : '';
  if (current !== ts) {
    console.error(`${outPath} is stale: run jlpm build:types (after python -m mcp_lab.record_schema)`);
    process.exit(1);
  }
  console.log('src/records.ts matches schema/records.schema.json');
} else {
  writeFileSync(outPath, ts);
  console.log(`wrote ${outPath}`);
}
