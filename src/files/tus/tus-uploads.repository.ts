import { Injectable } from '@nestjs/common';
import { PrismaService } from '../../prisma/prisma.service.js';

/** pg_advisory_xact_lock namespace of "create a resumable upload" (per user). */
const CREATE_LOCK = 74_520;

/** What a resumable upload will be written as once complete. */
export interface TusTarget {
  ref: string;
  holderType: string | null;
  fileName: string;
  options: { role: string | null; iterate: boolean; message: string | null; mimetype: string | null };
}

export interface TusUploadRecord extends TusTarget {
  id: string;
  userId: number;
  length: number;
  expiresAt: Date;
}

/** The per-user limits a new upload must stay within, and the time it is made at. */
export interface TusQuota {
  maxBytes: number;
  maxUploads: number;
  now: Date;
  expiresAt: Date;
}

/** Why a new upload was refused: the user's uploads under way and what they hold. */
export interface TusQuotaRefusal {
  refused: 'bytes' | 'uploads';
  open: number;
  bytes: number;
}

interface UploadRow {
  id: string;
  user_id: number;
  ref: string;
  holder_type: string | null;
  file_name: string;
  options: TusTarget['options'];
  length: bigint;
  expires_at: Date;
}

/**
 * The rows of tus_uploads: resumable uploads under way, their owner, target and declared
 * length (what counts against the owner's limits), and what the tus server keeps of each.
 */
@Injectable()
export class TusUploadsRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Records a new upload unless the user's unexpired uploads would then exceed a limit. The
   * count and the insert run under a per-user advisory lock held to the commit, so two
   * creations (on this instance or another) cannot both pass the check with the same count.
   */
  create(
    userId: number,
    id: string,
    length: number,
    target: TusTarget,
    quota: TusQuota,
  ): Promise<TusQuotaRefusal | null> {
    return this.prisma.transaction(async ({ db: tx }) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${CREATE_LOCK}::integer, ${userId}::integer)`;
      const [{ open, bytes }] = await tx.$queryRaw<{ open: number; bytes: bigint }[]>`
        SELECT count(*)::integer AS open, coalesce(sum(length), 0)::bigint AS bytes FROM tus_uploads
        WHERE user_id = ${userId} AND expires_at > ${quota.now}`;
      const held = { open, bytes: Number(bytes) };
      if (open + 1 > quota.maxUploads) return { refused: 'uploads', ...held };
      if (held.bytes + length > quota.maxBytes) return { refused: 'bytes', ...held };
      await tx.$executeRaw`
        INSERT INTO tus_uploads (id, user_id, ref, holder_type, file_name, options, length, created_at, expires_at)
        VALUES (${id}, ${userId}, ${target.ref}, ${target.holderType}, ${target.fileName},
                ${JSON.stringify(target.options)}::jsonb, ${length}, ${quota.now}, ${quota.expiresAt})`;
      return null;
    });
  }

  async find(id: string): Promise<TusUploadRecord | null> {
    const rows = await this.prisma.$queryRaw<UploadRow[]>`
      SELECT id, user_id, ref, holder_type, file_name, options, length, expires_at FROM tus_uploads WHERE id = ${id}`;
    return rows.length ? record(rows[0]) : null;
  }

  /** What the tus server keeps of the upload (its configstore); undefined when there is no row. */
  async info(id: string): Promise<unknown> {
    const rows = await this.prisma.$queryRaw<{ info: unknown }[]>`SELECT info FROM tus_uploads WHERE id = ${id}`;
    return rows[0]?.info ?? undefined;
  }

  /** Sets it; only on a row recorded by create(): the tus server never makes rows of its own. */
  async setInfo(id: string, info: unknown): Promise<void> {
    await this.prisma.$executeRaw`UPDATE tus_uploads SET info = ${JSON.stringify(info)}::jsonb WHERE id = ${id}`;
  }

  async delete(id: string): Promise<void> {
    await this.prisma.$executeRaw`DELETE FROM tus_uploads WHERE id = ${id}`;
  }

  async ids(): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`SELECT id FROM tus_uploads ORDER BY id`;
    return rows.map((r) => r.id);
  }

  /** Uploads that expired before `now`, oldest first, at most `limit`. */
  async expired(now: Date, limit: number): Promise<string[]> {
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT id FROM tus_uploads WHERE expires_at <= ${now} ORDER BY expires_at LIMIT ${limit}`;
    return rows.map((r) => r.id);
  }

  /** Of these ids, the ones no row names (their files are left over). */
  async unknown(ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.prisma.$queryRaw<{ id: string }[]>`
      SELECT x.id FROM unnest(${ids}::text[]) AS x(id) WHERE NOT EXISTS (SELECT 1 FROM tus_uploads u WHERE u.id = x.id)`;
    return rows.map((r) => r.id);
  }
}

function record(row: UploadRow): TusUploadRecord {
  return {
    id: row.id,
    userId: row.user_id,
    ref: row.ref,
    holderType: row.holder_type,
    fileName: row.file_name,
    options: row.options,
    length: Number(row.length),
    expiresAt: row.expires_at,
  };
}
