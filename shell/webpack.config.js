const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { commonConfig, sharedModules } = require('../libs/ui/build/webpack-common');

/** The host: no remotes at build time; their URLs come from /mfe-manifest.json at run time. */
module.exports = (_env, argv) => {
  const common = commonConfig({ dir: __dirname, mode: argv.mode });
  const production = argv.mode !== 'development';
  return {
    ...common,
    resolve: {
      ...common.resolve,
      alias: {
        ...common.resolve.alias,
        // react-router's package exports only its development build; production drops the dev checks.
        ...(production
          ? {
              'react-router$': path.join(
                path.dirname(require.resolve('react-router/package.json')),
                'dist/production/index.mjs',
              ),
            }
          : {}),
      },
    },
    entry: { main: './src/index.ts' },
    output: {
      path: path.join(__dirname, 'dist'),
      publicPath: '/',
      // The federation runtime cannot template [contenthash] in filename (STACK.md); chunks keep it.
      filename: '[name].js',
      chunkFilename: '[name].[contenthash:8].js',
      uniqueName: 'shell',
      clean: true,
    },
    plugins: [
      ...common.plugins,
      new HtmlWebpackPlugin({ template: './public/index.html', scriptLoading: 'defer' }),
      // The checkout-overlay docs the Share drawer links to: a static page, no scripts.
      new HtmlWebpackPlugin({
        template: './public/docs/checkout-overlay.html',
        filename: 'docs/checkout-overlay.html',
        inject: false,
        minify: false,
      }),
      new ModuleFederationPlugin({
        name: 'shell',
        remotes: {},
        // Only the remote that opens a drawer is fetched, never all of them at start.
        shareStrategy: 'loaded-first',
        shared: sharedModules('host', __dirname),
        dts: false,
        manifest: false,
        // Remotes come from a plain JSON of entry URLs, never from mf-manifest snapshots.
        experiments: { optimization: { disableSnapshot: true, target: 'web' } },
      }),
    ],
    devServer: {
      historyApiFallback: true,
      port: 4200,
      allowedHosts: 'all',
      // The API (and the remotes' built bundles it serves) run on their own port: `npm start`.
      proxy: [
        {
          context: ['/api', '/mfe', '/mfe-manifest.json'],
          target: process.env.API_URL ?? 'http://127.0.0.1:3000',
        },
      ],
    },
  };
};
