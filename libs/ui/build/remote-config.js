/** The whole webpack configuration of a remote: it exposes './drawers' and, if it has pages, './pages'. */
const fs = require('node:fs');
const path = require('node:path');
const ts = require('typescript');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { commonConfig, sharedModules } = require('./webpack-common');

/**
 * The drawer types a registry (src/drawers.ts) provides: the plain keys of its exported `drawers`
 * object. Computed keys (`[STUDENT_DIALOGS.addStudent]`) are dialogs other remotes load by name,
 * not drawer types the shell opens, so they are left out.
 */
function registryDrawerTypes(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (declaration.name.getText(source) !== 'drawers') continue;
      let init = declaration.initializer;
      while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
      if (!init || !ts.isObjectLiteralExpression(init)) break;
      return init.properties
        .filter((p) => p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)))
        .map((p) => p.name.text);
    }
  }
  throw new Error(`${file}: no "export const drawers = { ... }" object literal`);
}

/** The value of a property of an object literal, when it is a plain string or number literal. */
function literalProperty(object, name, source) {
  const property = object.properties.find(
    (p) => ts.isPropertyAssignment(p) && p.name && p.name.getText(source).replace(/['"]/g, '') === name,
  );
  if (!property) return undefined;
  const value = property.initializer;
  if (ts.isStringLiteral(value) || ts.isNoSubstitutionTemplateLiteral(value)) return value.text;
  if (ts.isNumericLiteral(value)) return Number(value.text);
  throw new Error(`${name} of a page must be written as a literal`);
}

/**
 * The pages a registry (src/pages.ts) brings: `export const pages = { '/admin/orders': { label:
 * 'Orders', menu: 20, component } }`, path, label and menu read as written (MfePage in contracts).
 */
function registryPages(file) {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      if (declaration.name.getText(source) !== 'pages') continue;
      let init = declaration.initializer;
      while (init && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
      if (!init || !ts.isObjectLiteralExpression(init)) break;
      return init.properties.map((p) => {
        if (
          !ts.isPropertyAssignment(p) ||
          !ts.isStringLiteral(p.name) ||
          !ts.isObjectLiteralExpression(p.initializer)
        )
          throw new Error(`${file}: each page is '<path>': { label?, menu?, component }`);
        const label = literalProperty(p.initializer, 'label', source);
        const menu = literalProperty(p.initializer, 'menu', source);
        return {
          path: p.name.text,
          ...(label !== undefined ? { label } : {}),
          ...(menu !== undefined ? { menu } : {}),
        };
      });
    }
  }
  throw new Error(`${file}: no "export const pages = { ... }" object literal`);
}

/**
 * Writes dist/mfe.json, what the remote says about itself (MfeDescriptor in @studio/contracts): its
 * federation name, its version (package.json), the drawer types of its registry and the range of
 * each shared library it needs. The API builds the default /mfe-manifest.json from these files.
 */
class MfeDescriptorPlugin {
  constructor({ dir, name, shared }) {
    this.options = { dir, name, shared };
  }
  apply(compiler) {
    const { dir, name, shared } = this.options;
    compiler.hooks.thisCompilation.tap('MfeDescriptorPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'MfeDescriptorPlugin', stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
          const registry = path.join(dir, 'src', 'drawers.ts');
          compilation.fileDependencies.add(registry);
          const pagesFile = path.join(dir, 'src', 'pages.ts');
          const pages = fs.existsSync(pagesFile) ? registryPages(pagesFile) : undefined;
          if (pages) compilation.fileDependencies.add(pagesFile);
          const descriptor = {
            name,
            version: pkg.version,
            drawers: registryDrawerTypes(registry),
            ...(pages ? { pages } : {}),
            shared: Object.fromEntries(Object.entries(shared).map(([lib, c]) => [lib, c.requiredVersion])),
          };
          compilation.emitAsset(
            'mfe.json',
            new compiler.webpack.sources.RawSource(`${JSON.stringify(descriptor, null, 2)}\n`),
          );
        },
      );
    });
  }
}

function remoteConfig({ dir, name, mode }) {
  const common = commonConfig({ dir, mode });
  const shared = sharedModules('remote', dir);
  return {
    ...common,
    entry: {},
    output: {
      path: path.join(dir, 'dist'),
      publicPath: 'auto',
      // No [contenthash] in filename: remoteEntry.js must keep its name (STACK.md).
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      uniqueName: name,
      clean: true,
    },
    plugins: [
      ...common.plugins,
      new MfeDescriptorPlugin({ dir, name, shared }),
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        // remote-setup first: the remote's own zod goes jitless before any schema is built.
        exposes: {
          './drawers': [path.join(__dirname, 'remote-setup.ts'), './src/drawers.ts'],
          ...(fs.existsSync(path.join(dir, 'src', 'pages.ts'))
            ? { './pages': [path.join(__dirname, 'remote-setup.ts'), './src/pages.ts'] }
            : {}),
        },
        shared,
        dts: false,
        manifest: false,
        experiments: { optimization: { disableSnapshot: true, target: 'web' } },
      }),
    ],
  };
}

module.exports = { remoteConfig, registryDrawerTypes, registryPages };
