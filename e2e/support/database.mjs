// A fresh PostgreSQL database per test file on the machine's server, dropped afterwards.
import { spawnSync } from 'node:child_process';

const PG = ['-h', '127.0.0.1', '-U', 'postgres'];

export function createDatabase(prefix = 'studio_e2e') {
  const name = `${prefix}_${process.pid}_${Date.now()}`;
  const result = spawnSync('createdb', [...PG, name], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`createdb ${name} failed: ${result.stderr}`);
  return {
    name,
    url: `postgres://postgres@127.0.0.1:5432/${name}`,
    drop() {
      spawnSync('dropdb', [...PG, '--if-exists', '--force', name], { encoding: 'utf8' });
    },
  };
}
