const { remoteConfig } = require('../libs/ui/build/remote-config');

module.exports = (_env, argv) => remoteConfig({ dir: __dirname, name: 'mfe_orders', mode: argv.mode });
