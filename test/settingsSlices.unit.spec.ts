// Each component receives its own settings slice (src/config/slices.ts), not the whole settings object:
// a function that takes Settings can read any of its entries, which hides what it depends on and makes
// it hard to test or reuse. Only the places that load and hand out the whole object (the composition
// root, the settings themselves, the command line, the stack manager and main.ts) import the Settings
// type; every other file names a slice. A reviewer cannot see a new `type Settings` import among many
// files; this test can. Specs are free to build whole settings (loadSettings) for their fixtures.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const src = join(__dirname, '..', 'src');

/** Folders (and files) of src that may hold the whole Settings object. */
const HOLDERS = /^(app|config|cli|devstack)\/|^main\.ts$/;

const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });

const isSettingsModule = (specifier: ts.Node | undefined): boolean =>
  !!specifier && ts.isStringLiteral(specifier) && /(^|\/)config\/settings$/.test(specifier.text);

/** The ways a file can name Settings: `import { Settings }`, `export { Settings } from`, `import('…/config/settings').Settings`. */
function namesSettings(file: string, text: string): boolean {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const named = (elements: readonly (ts.ImportSpecifier | ts.ExportSpecifier)[]): boolean =>
    elements.some((e) => (e.propertyName ?? e.name).text === 'Settings');
  let found = false;
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && isSettingsModule(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      // `import * as settings` reaches Settings too.
      if (bindings && (ts.isNamespaceImport(bindings) || named(bindings.elements))) found = true;
    } else if (ts.isExportDeclaration(node) && isSettingsModule(node.moduleSpecifier)) {
      if (!node.exportClause || (ts.isNamedExports(node.exportClause) && named(node.exportClause.elements))) found = true;
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      if (isSettingsModule(node.argument.literal) && node.qualifier?.getText() === 'Settings') found = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('settings slices', () => {
  const files = sourceFiles(src).map((path) => ({ file: relative(src, path), text: readFileSync(path, 'utf8') }));

  it('recognises every way of naming the Settings type', () => {
    expect(namesSettings('a.ts', "import type { Settings } from '../config/settings';")).toBe(true);
    expect(namesSettings('a.ts', "import {\n  ConfigError,\n  type Settings,\n} from '../../config/settings';")).toBe(true);
    expect(namesSettings('a.ts', "export type { Settings as S } from './config/settings';")).toBe(true);
    expect(namesSettings('a.ts', "let s: import('../config/settings').Settings;")).toBe(true);
    expect(namesSettings('a.ts', "import * as config from '../config/settings';")).toBe(true);
    expect(namesSettings('a.ts', "import { ConfigError } from '../config/settings';")).toBe(false);
    expect(namesSettings('a.ts', "import type { KafkaSettings } from '../config/slices';")).toBe(false);
  });

  it('keeps the whole Settings type in the composition root, config, cli, devstack and main.ts', () => {
    const holders = files.filter((f) => HOLDERS.test(f.file) && namesSettings(f.file, f.text));
    expect(holders.length).toBeGreaterThan(5); // the scan sees the holders, so the rule below can fail
    const others = files.filter((f) => !HOLDERS.test(f.file) && namesSettings(f.file, f.text)).map((f) => f.file);
    expect(others).toEqual([]);
  });
});
