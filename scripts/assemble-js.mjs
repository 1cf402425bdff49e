#!/usr/bin/env node
// node scripts/assemble-js.mjs <entry.js> <out.js>
// Assembles the page's ES modules (web/page/) into one classic script, as the page serves it: the modules
// in the order ES modules evaluate (depth first, imports before the importer, each once), their import
// declarations dropped and their `export` keywords removed, all in one strict function scope. That one
// scope is why the modules keep to a subset of ES modules, checked here: named imports and exports of
// declarations only (no default, no renaming, no namespace or re-export), every imported name exported
// by its module, no top-level name declared by two modules, and every .js file beside the entry reached
// from it. Parses with acorn (Debian's node-acorn, which emcc uses too).
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
let acorn;
try { acorn = require('acorn'); } catch { acorn = require('/usr/share/nodejs/acorn'); }

const [entryArg, outArg] = process.argv.slice(2);
if (!entryArg || !outArg) {
  console.error('usage: node scripts/assemble-js.mjs <entry.js> <out.js>');
  process.exit(2);
}
const entry = path.resolve(entryArg);
const root = path.dirname(entry);
const errors = [];
const rel = (f) => path.relative(process.cwd(), f);
const where = (file, node) => `${rel(file)}:${node.loc.start.line}`;

const modules = new Map();  // file -> {file, source, ast, imports: [{names, from, node}], exports: Set, declared: Set}
function load(file) {
  const source = fs.readFileSync(file, 'utf8');
  let ast;
  try {
    ast = acorn.parse(source, { ecmaVersion: 2020, sourceType: 'module', locations: true });
  } catch (e) {
    throw new Error(`${rel(file)}: ${e.message}`);
  }
  const m = { file, source, ast, imports: [], exports: new Set(), declared: new Set() };
  for (const node of ast.body) {
    if (node.type === 'ImportDeclaration') {
      const names = [];
      for (const s of node.specifiers) {
        if (s.type !== 'ImportSpecifier' || s.imported.name !== s.local.name) {
          errors.push(`${where(file, s)}: only named imports without renaming (import { a } from './m.js')`);
        } else names.push(s.local.name);
      }
      if (!node.source.value.startsWith('./')) errors.push(`${where(file, node)}: imports only './<module>.js' beside it`);
      m.imports.push({ names, from: path.resolve(root, node.source.value), node });
      continue;
    }
    if (node.type === 'ExportDefaultDeclaration' || node.type === 'ExportAllDeclaration' ||
        (node.type === 'ExportNamedDeclaration' && !node.declaration)) {
      errors.push(`${where(file, node)}: export only declarations (export function f, export const x)`);
      continue;
    }
    const decl = node.type === 'ExportNamedDeclaration' ? node.declaration : node;
    const names = [];
    if (decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') names.push(decl.id.name);
    else if (decl.type === 'VariableDeclaration') {
      for (const d of decl.declarations) {
        if (d.id.type !== 'Identifier') errors.push(`${where(file, d)}: no destructuring at the top level`);
        else names.push(d.id.name);
      }
    }
    for (const n of names) {
      m.declared.add(n);
      if (node.type === 'ExportNamedDeclaration') m.exports.add(n);
    }
  }
  return m;
}

const order = [];
const visiting = new Set();
function visit(file) {
  if (modules.has(file) || visiting.has(file)) return;  // done, or a cycle (its importer runs first)
  visiting.add(file);
  if (!fs.existsSync(file)) throw new Error(`${rel(file)}: no such module`);
  const m = load(file);
  for (const imp of m.imports) visit(imp.from);
  visiting.delete(file);
  modules.set(file, m);
  order.push(m);
}
try {
  visit(entry);
} catch (e) {
  console.error(`assemble-js: ${e.message}`);
  process.exit(1);
}

const owner = new Map();  // top-level name -> module
for (const m of order) {
  for (const imp of m.imports) {
    const from = modules.get(imp.from);
    for (const n of imp.names) {
      if (!from.exports.has(n)) errors.push(`${where(m.file, imp.node)}: ${rel(imp.from)} exports no '${n}'`);
    }
  }
  for (const n of m.declared) {
    if (owner.has(n)) errors.push(`${rel(m.file)}: '${n}' is also declared at the top level of ${rel(owner.get(n).file)}`);
    else owner.set(n, m);
  }
}
for (const f of fs.readdirSync(root).filter((f) => f.endsWith('.js'))) {
  if (!modules.has(path.join(root, f))) errors.push(`${rel(path.join(root, f))}: not imported from ${rel(entry)}`);
}
if (errors.length) {
  for (const e of errors) console.error(`assemble-js: ${e}`);
  process.exit(1);
}

// Each module's text without its import declarations and with `export ` cut from its declarations.
function body(m) {
  const cuts = [];
  for (const node of m.ast.body) {
    if (node.type === 'ImportDeclaration') {
      let end = node.end;
      if (m.source[end] === '\n') ++end;
      cuts.push([node.start, end]);
    } else if (node.type === 'ExportNamedDeclaration') cuts.push([node.start, node.declaration.start]);
  }
  let out = '', at = 0;
  for (const [a, b] of cuts) { out += m.source.slice(at, a); at = b; }
  return out + m.source.slice(at);
}
const parts = order.map((m) => `// ---- ${path.relative(path.dirname(path.dirname(root)), m.file)}\n${body(m).trim()}\n`);
const text = `// Assembled from web/page/ by scripts/assemble-js.mjs: edit the modules there, not this file.\n` +
  `(function () {\n'use strict';\n${parts.join('\n')}})();\n`;
// The result must parse as the classic script the page loads.
try {
  acorn.parse(text, { ecmaVersion: 2020, sourceType: 'script' });
} catch (e) {
  console.error(`assemble-js: the assembled script does not parse: ${e.message}`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(path.resolve(outArg)), { recursive: true });
fs.writeFileSync(`${outArg}.tmp`, text);
fs.renameSync(`${outArg}.tmp`, outArg);
