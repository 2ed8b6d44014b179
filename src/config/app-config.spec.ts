import { ConfigError, loadConfig, parseSize } from './app-config.js';

describe('loadConfig', () => {
  it('has defaults for everything', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, databaseUrl: '', basePath: '', jsonBodyLimit: 16 * 1024 ** 2 });
  });

  it('reads start-up switches strictly', () => {
    expect(loadConfig({}).migrateOnStart).toBe(true);
    expect(loadConfig({}).seedDemoData).toBeNull();
    expect(loadConfig({ MIGRATE_ON_START: 'false', SEED_DEMO_DATA: 'TRUE' })).toMatchObject({
      migrateOnStart: false,
      seedDemoData: true,
    });
    expect(() => loadConfig({ MIGRATE_ON_START: 'no' })).toThrow('MIGRATE_ON_START: "no" is not true or false');
  });

  it('normalises the base path and public URL', () => {
    const c = loadConfig({ BASE_PATH: '/pdm/', PUBLIC_URL: 'https://pdm.example.com/' });
    expect(c.basePath).toBe('/pdm');
    expect(c.publicUrl).toBe('https://pdm.example.com');
  });

  it('takes 0 for the file cache (off), but not for the largest file it keeps', () => {
    expect(loadConfig({})).toMatchObject({ filesCacheSize: 64 * 1024 ** 2, filesCacheMaxFile: 4 * 1024 ** 2 });
    expect(loadConfig({ FILES_CACHE_SIZE: '0' }).filesCacheSize).toBe(0);
    expect(loadConfig({ FILES_CACHE_SIZE: '0mb', FILES_CACHE_MAX_FILE: '512kb' })).toMatchObject({
      filesCacheSize: 0,
      filesCacheMaxFile: 512 * 1024,
    });
    expect(() => loadConfig({ FILES_CACHE_MAX_FILE: '0' })).toThrow('FILES_CACHE_MAX_FILE: "0" is not a positive size');
    expect(() => loadConfig({ FILES_CACHE_SIZE: '-1' })).toThrow('FILES_CACHE_SIZE: "-1" is not a size');
    expect(() => loadConfig({ FILES_CACHE_MAX_FILE: '65mb' })).toThrow(
      'FILES_CACHE_MAX_FILE: "65mb" is more than 64 MiB',
    );
    expect(loadConfig({}).filesDiskCacheSize).toBe(1024 ** 3);
    expect(loadConfig({}).filesDiskCacheDir).toMatch(/pdm-file-cache$/);
    expect(loadConfig({ FILES_DISK_CACHE_SIZE: '0' }).filesDiskCacheSize).toBe(0);
  });

  it('chooses the file store, and keeps the embedded database on postgres', () => {
    expect(loadConfig({}).filesStore).toBe('postgres');
    const db = { DATABASE_URL: 'postgresql://pdm@db/pdm' };
    expect(loadConfig({ ...db, FILES_STORE: 'filesystem', FILES_VAULT_DIR: '/vault' })).toMatchObject({
      filesStore: 'filesystem',
      filesVaultDir: '/vault',
    });
    expect(loadConfig({ ...db, FILES_STORE: 'S3', FILES_S3_BUCKET: 'pdm' })).toMatchObject({
      filesStore: 's3',
      filesS3Bucket: 'pdm',
      filesS3Region: 'us-east-1',
      filesS3ForcePathStyle: false,
    });
    expect(() => loadConfig({ FILES_STORE: 's3', FILES_S3_BUCKET: 'pdm' })).toThrow(
      'FILES_STORE: "s3" needs DATABASE_URL; the embedded database keeps file bytes in PostgreSQL only (FILES_STORE=postgres)',
    );
    expect(() => loadConfig({ ...db, FILES_STORE: 'filesystem' })).toThrow(
      'FILES_VAULT_DIR: needed with FILES_STORE=filesystem',
    );
    expect(() => loadConfig({ ...db, FILES_STORE: 's3' })).toThrow('FILES_S3_BUCKET: needed with FILES_STORE=s3');
    expect(() => loadConfig({ FILES_S3_ACCESS_KEY_ID: 'key' })).toThrow('give both or neither');
    expect(() => loadConfig({ FILES_STORE: 'ftp' })).toThrow(
      'FILES_STORE: "ftp" is not one of postgres, filesystem, s3',
    );
    expect(() => loadConfig({ FILES_S3_ENDPOINT: 'minio:9000' })).toThrow('FILES_S3_ENDPOINT: is not an http(s) URL');
  });

  it('keeps bytes no row names for longer than an upload may take, and walks stores at a rate', () => {
    expect(loadConfig({})).toMatchObject({ filesStoreSweepGraceMs: 86_400_000, filesStoreSweepRate: 1000 });
    expect(loadConfig({ FILES_STORE_SWEEP_GRACE_MS: '7200000', FILES_STORE_SWEEP_RATE: '0' })).toMatchObject({
      filesStoreSweepGraceMs: 7_200_000,
      filesStoreSweepRate: 0,
    });
    expect(() => loadConfig({ FILES_STORE_SWEEP_GRACE_MS: '60000' })).toThrow(
      'FILES_STORE_SWEEP_GRACE_MS: 60000 is not between 3600000 and 2592000000',
    );
    expect(() => loadConfig({ FILES_STORE_SWEEP_GRACE_MS: '3600000', HTTP_REQUEST_TIMEOUT_MS: '3600000' })).toThrow(
      'FILES_STORE_SWEEP_GRACE_MS: 3600000 must be longer than HTTP_REQUEST_TIMEOUT_MS (3600000), which an upload may take',
    );
  });

  it('keeps the server timeouts longer than a request may wait for the database, by default and when set', () => {
    expect(loadConfig({})).toMatchObject({
      dbConnectTimeoutMs: 5000,
      dbStatementTimeoutMs: 30_000,
      reportTimeoutMs: 30_000,
      httpIdleTimeoutMs: 60_000,
      shutdownTimeoutMs: 60_000,
    });
    const wait =
      'must be longer than REPORT_TIMEOUT_MS + DB_CONNECT_TIMEOUT_MS (35000 ms), the longest a request may wait for the database';
    let err: unknown;
    try {
      loadConfig({ HTTP_IDLE_TIMEOUT_MS: '30000', SHUTDOWN_TIMEOUT_MS: '10000' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([
      `HTTP_IDLE_TIMEOUT_MS: 30000 ${wait}; its connection would be closed before the answer`,
      `SHUTDOWN_TIMEOUT_MS: 10000 ${wait}; a request in flight at SIGTERM would be cut off`,
    ]);
    // The longer of the two statement limits counts; 0 (no statement limit) leaves the report's.
    expect(() => loadConfig({ DB_STATEMENT_TIMEOUT_MS: '120000' })).toThrow(
      'HTTP_IDLE_TIMEOUT_MS: 60000 must be longer than DB_STATEMENT_TIMEOUT_MS + DB_CONNECT_TIMEOUT_MS (125000 ms)',
    );
    expect(loadConfig({ DB_STATEMENT_TIMEOUT_MS: '0' }).dbStatementTimeoutMs).toBe(0);
    expect(
      loadConfig({
        REPORT_TIMEOUT_MS: '1000',
        DB_STATEMENT_TIMEOUT_MS: '1000',
        DB_LOCK_TIMEOUT_MS: '500',
        DB_CONNECT_TIMEOUT_MS: '500',
        HTTP_IDLE_TIMEOUT_MS: '1501',
        SHUTDOWN_TIMEOUT_MS: '1501',
      }),
    ).toMatchObject({ httpIdleTimeoutMs: 1501, shutdownTimeoutMs: 1501 });
    expect(() =>
      loadConfig({ REPORT_TIMEOUT_MS: '1000', DB_CONNECT_TIMEOUT_MS: '500', HTTP_IDLE_TIMEOUT_MS: '1000' }),
    ).toThrow(
      'HTTP_IDLE_TIMEOUT_MS: 1000 must be longer than DB_STATEMENT_TIMEOUT_MS + DB_CONNECT_TIMEOUT_MS (30500 ms)',
    );
  });

  it('bounds waits for another change of the same object below the statement timeout', () => {
    expect(loadConfig({}).dbLockTimeoutMs).toBe(3000);
    expect(() => loadConfig({ DB_LOCK_TIMEOUT_MS: '30000' })).toThrow(
      'DB_LOCK_TIMEOUT_MS: 30000 must be shorter than DB_STATEMENT_TIMEOUT_MS (30000); a change waiting for another would be cancelled as a statement past its time instead',
    );
    expect(loadConfig({ DB_LOCK_TIMEOUT_MS: '30000', DB_STATEMENT_TIMEOUT_MS: '0' }).dbLockTimeoutMs).toBe(30_000);
  });

  it('reads GATEWAY_BASE_PATH: the gateway path by default, another path, or off', () => {
    expect(loadConfig({}).gatewayBasePath).toBe('/Windchill/servlet/nexiles/tools');
    expect(loadConfig({ GATEWAY_BASE_PATH: ' /nexiles/servlet/nexiles/tools ' }).gatewayBasePath).toBe(
      '/nexiles/servlet/nexiles/tools',
    );
    expect(loadConfig({ GATEWAY_BASE_PATH: '' }).gatewayBasePath).toBe('');
    expect(loadConfig({ GATEWAY_BASE_PATH: 'off' }).gatewayBasePath).toBe('');
    expect(loadConfig({ GATEWAY_BASE_PATH: 'OFF' }).gatewayBasePath).toBe('');
    expect(loadConfig({ GATEWAY_BASE_PATH: '/gw', BASE_PATH: '/pdm' })).toMatchObject({
      gatewayBasePath: '/gw',
      basePath: '/pdm',
    });
  });

  it('refuses a GATEWAY_BASE_PATH that is not a plain absolute path', () => {
    expect(() => loadConfig({ GATEWAY_BASE_PATH: 'Windchill/servlet/nexiles/tools' })).toThrow(
      'GATEWAY_BASE_PATH: "Windchill/servlet/nexiles/tools" does not start with / (e.g. /Windchill/servlet/nexiles/tools; off: none)',
    );
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/Windchill/servlet/nexiles/tools/' })).toThrow(
      'GATEWAY_BASE_PATH: "/Windchill/servlet/nexiles/tools/" ends with / (write it without: e.g. /Windchill/servlet/nexiles/tools)',
    );
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/' })).toThrow('GATEWAY_BASE_PATH: "/" ends with /');
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/a//b' })).toThrow(
      'GATEWAY_BASE_PATH: "/a//b" has the segment "": segments are letters, digits and . _ ~ - (not empty, . or ..)',
    );
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/a/../b' })).toThrow('has the segment ".."');
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/a b' })).toThrow('has the segment "a b"');
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/a?b' })).toThrow('has the segment "a?b"');
  });

  it('refuses a GATEWAY_BASE_PATH that would take over routes under BASE_PATH', () => {
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/pdm', BASE_PATH: '/pdm' })).toThrow(
      'GATEWAY_BASE_PATH: "/pdm" is BASE_PATH; the gateway addresses need a path of their own',
    );
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/gw', BASE_PATH: '/gw/pdm' })).toThrow(
      'GATEWAY_BASE_PATH: "/gw" holds BASE_PATH ("/gw/pdm"); choose a path outside it',
    );
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/files/gw' })).toThrow(
      'GATEWAY_BASE_PATH: "/files/gw" lies in the service\'s own routes (/files/…); choose a path outside them',
    );
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/PDM/Version', BASE_PATH: '/pdm' })).toThrow(
      "lies in the service's own routes (/pdm/version/…)",
    );
    expect(() => loadConfig({ GATEWAY_BASE_PATH: '/docs' })).toThrow("lies in the service's own routes");
    // Under BASE_PATH but beside its routes, or beside BASE_PATH: fine.
    expect(loadConfig({ GATEWAY_BASE_PATH: '/pdm/servlet/nexiles/tools', BASE_PATH: '/pdm' }).gatewayBasePath).toBe(
      '/pdm/servlet/nexiles/tools',
    );
    expect(loadConfig({ GATEWAY_BASE_PATH: '/files/gw', BASE_PATH: '/pdm' }).gatewayBasePath).toBe('/files/gw');
  });

  it('lists every bad variable at once', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: '70000', BASE_PATH: 'no-slash', JSON_BODY_LIMIT: 'lots', DATABASE_URL: 'not a url' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).problems).toEqual([
      'PORT: 70000 is not between 0 and 65535',
      'DATABASE_URL: is not a URL (postgresql://user:password@host:5432/database)',
      'BASE_PATH: "no-slash" is not a path like /pdm',
      'JSON_BODY_LIMIT: "lots" is not a size (use e.g. 1048576, 512kb, 10mb)',
    ]);
  });

  it('reads TRUST_PROXY as hops or addresses, and refuses anything else', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8, fd00::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      'fd00::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'balancer' })).toThrow(
      'TRUST_PROXY: "balancer" is not a number of hops, an address, a subnet (10.0.0.0/8), loopback, linklocal or uniquelocal',
    );
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow('TRUST_PROXY: "10.0.0.0/33" is not');
  });

  it('takes a replica only beside a PostgreSQL server', () => {
    const replica = 'postgresql://pdm@replica:5432/pdm';
    expect(
      loadConfig({ DATABASE_URL: 'postgresql://pdm@primary:5432/pdm', DATABASE_REPLICA_URL: replica }),
    ).toMatchObject({ databaseReplicaUrl: replica });
    expect(loadConfig({}).databaseReplicaUrl).toBe('');
    expect(() => loadConfig({ DATABASE_REPLICA_URL: replica })).toThrow(
      'DATABASE_REPLICA_URL: needs DATABASE_URL (the embedded database has no replica)',
    );
    expect(() => loadConfig({ DATABASE_URL: 'postgresql://h/d', DATABASE_REPLICA_URL: 'mysql://h/d' })).toThrow(
      'DATABASE_REPLICA_URL: must start with postgresql://',
    );
  });

  it('waits 2 s for a silent replica by default, at least 100 ms', () => {
    expect(loadConfig({}).dbReplicaTimeoutMs).toBe(2000);
    expect(loadConfig({ DB_REPLICA_TIMEOUT_MS: '500' }).dbReplicaTimeoutMs).toBe(500);
    expect(() => loadConfig({ DB_REPLICA_TIMEOUT_MS: '0' })).toThrow('DB_REPLICA_TIMEOUT_MS:');
  });
});

describe('parseSize', () => {
  it.each([
    ['1048576', 1048576],
    ['512kb', 512 * 1024],
    ['10MB', 10 * 1024 * 1024],
    ['1gb', 1024 ** 3],
  ])('%s → %d', (raw, bytes) => {
    expect(parseSize(raw)).toBe(bytes);
  });

  it.each(['0', '-1', '1.5mb', 'mb', ''])('rejects %j', (raw) => {
    expect(() => parseSize(raw)).toThrow();
  });
});
