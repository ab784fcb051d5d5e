import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../helpers/server-process';
import { AOF_ALWAYS, redisNode, type RedisConnection, type RedisNode } from './redis-server';

/** A topology the failover tests can disrupt; `destroy()` stops every process and removes every file. */
export interface TestTopology {
  connection: RedisConnection;
  nodes: RedisNode[];
  destroy(): Promise<void>;
}

async function stopAll(nodes: RedisNode[], dir: string): Promise<void> {
  await Promise.all(nodes.map((n) => n.stop('SIGKILL')));
  rmSync(dir, { recursive: true, force: true });
}

/** A node with AOF (fsync always) in a directory of its own under `dir`. */
async function persistentNode(dir: string, name: string, args: string[] = []): Promise<RedisNode> {
  const nodeDir = join(dir, name);
  mkdirSync(nodeDir);
  return redisNode([...AOF_ALWAYS, '--dir', nodeDir, ...args]);
}

export interface TestCluster extends TestTopology {
  /** The primary serving `key`'s slot, and its replica. */
  ownerOf(key: string): Promise<{ slot: number; primary: RedisNode; replica: RedisNode; primaryId: string }>;
  /** Every primary: its node and id. */
  primaries(): Promise<Array<{ node: RedisNode; id: string }>>;
  /** Waits until every running node reports cluster_state:ok and agrees on `slot`'s owner. */
  settled(slot?: number): Promise<void>;
}

interface NodeLine {
  id: string;
  port: number;
  flags: string[];
  primaryId: string;
  slots: string[];
}
const parseNodes = (text: string): NodeLine[] =>
  text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, address, flags, primaryId, , , , , ...slots] = line.split(' ');
      return { id, port: Number(address.split(':')[1].split('@')[0]), flags: flags.split(','), primaryId, slots };
    });
const holds = (slots: string[], slot: number) =>
  slots.some((range) => {
    if (range.startsWith('[')) return false;
    const [from, to = from] = range.split('-').map(Number);
    return slot >= from && slot <= to;
  });

/**
 * A Redis Cluster of 3 primaries and 3 replicas on free ports (AOF, fsync always), made with
 * `redis-cli --cluster create`. A node that stops answering for 1 s is failed over.
 */
export async function startCluster(): Promise<TestCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-cluster-'));
  const nodes: RedisNode[] = [];
  try {
    for (let i = 0; i < 6; i++) {
      nodes.push(
        await persistentNode(dir, `node${i}`, [
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          'nodes.conf',
          '--cluster-node-timeout',
          '1000',
          '--cluster-replica-validity-factor',
          '0',
        ]),
      );
    }
    await nodes[0].cli(
      '--cluster',
      'create',
      ...nodes.map((n) => `127.0.0.1:${n.port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
    );
  } catch (err) {
    await stopAll(nodes, dir);
    throw err;
  }
  const byPort = (port: number) => {
    const node = nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no test node on port ${port}`);
    return node;
  };
  const view = async (from: RedisNode = nodes[0]) => parseNodes(await from.cli('cluster', 'nodes'));
  const live = async () => {
    const out: RedisNode[] = [];
    for (const n of nodes) if ((await n.cli('ping').catch(() => '')) === 'PONG') out.push(n);
    return out;
  };
  const cluster: TestCluster = {
    nodes,
    connection: {
      topology: { kind: 'cluster', nodes: nodes.slice(0, 3).map((n) => ({ host: '127.0.0.1', port: n.port })) },
      waitReplicas: 1,
    },
    async ownerOf(key) {
      const up = (await live())[0];
      const slot = Number(await up.cli('cluster', 'keyslot', key));
      const lines = await view(up);
      const primary = lines.find(
        (l) => l.flags.includes('master') && !l.flags.includes('fail') && holds(l.slots, slot),
      );
      const replica = lines.find((l) => primary && l.primaryId === primary.id && !l.flags.includes('fail'));
      if (!primary || !replica)
        throw new Error(
          `slot ${slot}: no primary with a live replica in\n${lines.map((l) => `${l.port} ${l.flags} ${l.primaryId} ${l.slots}`).join('\n')}`,
        );
      return { slot, primary: byPort(primary.port), replica: byPort(replica.port), primaryId: primary.id };
    },
    async primaries() {
      const lines = await view((await live())[0]);
      return lines
        .filter((l) => l.flags.includes('master') && !l.flags.includes('fail') && l.slots.length > 0)
        .map((l) => ({ node: byPort(l.port), id: l.id }));
    },
    async settled(slot) {
      await waitFor(
        async () => {
          const up = await live();
          const views = await Promise.all(
            up.map(async (n) => ({ info: await n.cli('cluster', 'info'), lines: await view(n) })),
          );
          if (!views.every((v) => v.info.includes('cluster_state:ok'))) return false;
          const replication = await Promise.all(up.map((n) => n.cli('info', 'replication')));
          if (replication.some((r) => r.includes('role:master') && !/state=online/.test(r))) return false;
          if (slot === undefined) return true;
          const owners = new Set(
            views.map((v) => v.lines.find((l) => l.flags.includes('master') && holds(l.slots, slot))?.id),
          );
          return owners.size === 1 && !owners.has(undefined);
        },
        'the cluster to settle',
        20_000,
      );
    },
    destroy: () => stopAll(nodes, dir),
  };
  await cluster.settled();
  return cluster;
}

export interface TestSentinels extends TestTopology {
  name: string;
  sentinels: RedisNode[];
  /** The data node the sentinels name as primary now. */
  primary(): Promise<RedisNode>;
  /** Waits until every sentinel names the same primary, knows a replica and the two other sentinels. */
  settled(): Promise<void>;
}

/**
 * A primary, a replica (AOF, fsync always) and three sentinels (quorum 2) on free ports. A primary
 * that stops answering for 1 s is failed over.
 */
export async function startSentinels(): Promise<TestSentinels> {
  const name = 'gate';
  const dir = mkdtempSync(join(tmpdir(), 'pg-sentinel-'));
  const data: RedisNode[] = [];
  const sentinels: RedisNode[] = [];
  try {
    data.push(await persistentNode(dir, 'primary'));
    data.push(await persistentNode(dir, 'replica', ['--replicaof', '127.0.0.1', String(data[0].port)]));
    for (let i = 0; i < 3; i++) {
      const config = join(dir, `sentinel${i}.conf`);
      writeFileSync(
        config,
        [
          `sentinel monitor ${name} 127.0.0.1 ${data[0].port} 2`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 10000`,
          `dir ${dir}`,
          '',
        ].join('\n'),
      );
      sentinels.push(await redisNode(['--sentinel'], { config, ready: `+monitor master ${name}` }));
    }
  } catch (err) {
    await stopAll([...data, ...sentinels], dir);
    throw err;
  }
  const primaryPort = async (s: RedisNode) =>
    Number((await s.cli('sentinel', 'get-master-addr-by-name', name)).split('\n')[1]);
  const set: TestSentinels = {
    name,
    sentinels,
    nodes: data,
    connection: {
      topology: { kind: 'sentinel', sentinels: sentinels.map((s) => ({ host: '127.0.0.1', port: s.port })), name },
      waitReplicas: 1,
    },
    async primary() {
      const port = await primaryPort(sentinels[0]);
      const node = data.find((n) => n.port === port);
      if (!node) throw new Error(`the sentinels name an unknown primary on port ${port}`);
      return node;
    },
    async settled() {
      await waitFor(
        async () => {
          const ports = await Promise.all(sentinels.map(primaryPort));
          if (new Set(ports).size !== 1) return false;
          const primary = data.find((n) => n.port === ports[0]);
          if (!primary || !/connected_slaves:1[\s\S]*state=online/.test(await primary.cli('info', 'replication')))
            return false;
          for (const s of sentinels) {
            const replicas = await s.cli('sentinel', 'replicas', name);
            const others = await s.cli('sentinel', 'sentinels', name);
            if (
              !replicas.includes('slave') ||
              replicas.includes('s_down') ||
              (others.match(/^name$/gm) ?? []).length !== 2
            )
              return false;
          }
          return true;
        },
        'the sentinels to agree',
        30_000,
      );
    },
    destroy: () => stopAll([...data, ...sentinels], dir),
  };
  await set.settled();
  return set;
}
