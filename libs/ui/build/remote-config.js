/** The whole webpack configuration of a remote: it exposes './drawers' and nothing else. */
const path = require('node:path');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { commonConfig, sharedModules } = require('./webpack-common');

function remoteConfig({ dir, name, mode }) {
  const common = commonConfig({ dir, mode });
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
      new ModuleFederationPlugin({
        name,
        filename: 'remoteEntry.js',
        exposes: { './drawers': './src/drawers.ts' },
        shared: sharedModules('remote'),
        dts: false,
        manifest: false,
        experiments: { optimization: { disableSnapshot: true, target: 'web' } },
      }),
    ],
  };
}

module.exports = { remoteConfig };
