import { Injectable } from '@nestjs/common';
import { migrationNames } from '../prisma/migrate.js';
import { HealthRepository } from './health.repository.js';

export interface Readiness {
  status: 'ok' | 'unavailable';
  database: 'up' | 'down';
  migrations: 'applied' | 'pending' | 'unknown';
  pending?: string[];
}

const CHECK_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  private readonly expected = migrationNames();

  constructor(private readonly repo: HealthRepository) {}

  /** Ready when the database answers and every migration shipped with this build is applied. */
  async readiness(): Promise<Readiness> {
    try {
      const applied = new Set(await withTimeout(this.repo.appliedMigrations(), CHECK_TIMEOUT_MS));
      const pending = this.expected.filter((m) => !applied.has(m));
      return pending.length
        ? { status: 'unavailable', database: 'up', migrations: 'pending', pending }
        : { status: 'ok', database: 'up', migrations: 'applied' };
    } catch {
      return { status: 'unavailable', database: 'down', migrations: 'unknown' };
    }
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timeout')), ms);
    }),
  ]);
}
