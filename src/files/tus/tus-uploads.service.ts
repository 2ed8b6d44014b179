import { HttpException, HttpStatus, Inject, Injectable, Logger, NotFoundException } from '@nestjs/common';
import { Server, type ServerOptions } from '@tus/server';
import type { KvStore, Upload } from '@tus/utils';
import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import type { AuthUser } from '../../auth/auth-user.js';
import { Clock } from '../../common/clock.js';
import { errorEnvelope } from '../../common/error-envelope.js';
import { baseUrl } from '../../common/public-url.js';
import { requestIdOf } from '../../common/request-id.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { FileContent } from '../file-content.js';
import { uploadKey } from '../stores/blobs.repository.js';
import type { UploadContent } from '../upload/upload-receipt.js';
import { parseHolderRef } from '../files.params.js';
import { FilesService, type FileTarget } from '../files.service.js';
import { TusPgLocker } from './tus-pg-locker.js';
import { envelopeTextErrors, tusErrorAnswer, type TusError } from './tus-errors.js';
import { parseTusTarget, parseUploadLength } from './tus-request.js';
import { TusChunkStore, TusFileStore, type TusStore } from './tus-stores.js';
import { TusUploadsRepository, type TusTarget, type TusUploadRecord } from './tus-uploads.repository.js';

/** What the controller has settled about a request before the tus server sees it. */
interface TusRequestState {
  user: AuthUser;
  id: string;
  /** A new upload's: when its row was made (its expiry counts from then). */
  createdAt?: Date;
  /**
   * A new upload completed with its creation is over (written, or refused): it goes once the
   * tus server has answered, as the server asks the store about it after the completion.
   */
  over?: boolean;
}

const STATE = Symbol('tus request');

/** An answer of onUploadFinish, replacing the tus server's. */
type TusAnswer = { status_code: number; headers: Record<string, string>; body: string };
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };
type TusNodeRequest = Request & { [STATE]?: TusRequestState };

/** One part at a time may be written into PostgreSQL per this many connections of the pool. */
const PARTS_PER_POOL = 4;

/** Expired uploads removed per sweep at most. */
const SWEEP_BATCH = 1000;

/**
 * Resumable uploads (the tus protocol, served by @tus/server) into files: an upload is made
 * for one file of one object, its bytes arrive in as many PATCH requests as the client likes,
 * and once the last byte is in it is recorded exactly as a raw upload is (FilesService.save,
 * with the same checks, deduplication and audit event). The controller authenticates and
 * checks ownership before the tus server reads anything; the uploads' records are rows of
 * tus_uploads (so every instance sees them). Their bytes go into the postgres store's chunks as
 * they arrive, or, with the vault or S3, into files in FILES_TUS_DIR (tus-stores.ts), hashed on
 * the way in either case.
 */
@Injectable()
export class TusUploadsService {
  private readonly logger = new Logger('TusUploads');
  readonly store: TusStore;
  private readonly server: Server;

  constructor(
    private readonly files: FilesService,
    private readonly uploads: TusUploadsRepository,
    private readonly content: FileContent,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly locker: TusPgLocker,
  ) {
    const expiry = config.filesTusExpiryMs;
    this.store =
      content.stores.current === 'postgres'
        ? new TusChunkStore(
            content.stores.blobs,
            uploads,
            !config.embeddedDatabase,
            expiry,
            Math.max(1, Math.floor(config.dbPoolMax / PARTS_PER_POOL)),
          )
        : new TusFileStore(config.filesTusDir, new RowConfigstore(uploads), expiry);
    const options: ServerOptions & { datastore: TusStore } = {
      path: `${config.basePath}/files/tus`,
      // Requests of one upload take turns, on this instance and across instances (advisory locks).
      locker,
      datastore: this.store,
      maxSize: config.filesMaxSize,
      // No CORS headers: the service answers no cross-origin requests elsewhere either.
      allowedOrigins: () => false,
      // The ids are the controller's: it checked (or, for a new upload, recorded) them first.
      namingFunction: (req) => stateOf(req).id,
      getFileIdFromRequest: (req) => stateOf(req).id,
      generateUrl: (req, { id }) => `${baseUrl(nodeRequest(req), config)}/files/tus/${id}`,
      onUploadFinish: (req, upload) => this.finish(nodeRequest(req), upload),
      // Errors that reached a handler: what their answer says (its text becomes the envelope's message).
      onResponseError: (_req, err) => {
        if (!('status_code' in err) && !(err instanceof HttpException)) {
          this.logger.error('a resumable upload request failed', err.stack);
        }
        return tusErrorAnswer(err);
      },
      // Upload-Length stays required: a deferred length could not be counted against the limits.
      // Upload-Expires counts from the row's creation, as the expiry of the row does.
      onUploadCreate: (req, upload) => {
        const createdAt = stateOf(req).createdAt;
        if (createdAt) upload.creation_date = createdAt.toISOString();
        return Promise.resolve({ metadata: upload.metadata });
      },
    };
    this.server = new Server(options);
  }

  /**
   * POST: a new upload, if the caller may write the file now and their uploads under way stay
   * within FILES_TUS_USER_MAX_BYTES and FILES_TUS_USER_MAX_UPLOADS; then the tus server answers.
   */
  async create(user: AuthUser, req: Request, res: Response): Promise<void> {
    const target = parseTusTarget(req.get('upload-metadata'));
    const length = parseUploadLength(req.get('upload-length'), this.config.filesMaxSize);
    await this.files.checkSave(user, this.fileTarget(req, target), target.options);
    const id = randomBytes(16).toString('hex');
    const now = this.clock.now();
    const refused = await this.uploads.create(user.id, id, length, target, {
      maxBytes: this.config.filesTusUserMaxBytes,
      maxUploads: this.config.filesTusUserMaxUploads,
      now,
      expiresAt: new Date(now.getTime() + this.config.filesTusExpiryMs),
    });
    if (refused) throw overQuota(refused, length, this.config);
    const state: TusRequestState = { user, id, createdAt: now };
    (req as TusNodeRequest)[STATE] = state;
    try {
      await this.handle(req, res);
    } catch (e) {
      await this.discard(id);
      throw e;
    }
    // Completed with its creation, or refused by the tus server (a bad header): nothing of it is kept.
    if (state.over || res.statusCode >= 300) await this.discard(id);
  }

  /** HEAD, PATCH, DELETE of an upload: only its creator's, and only before it expires (404 otherwise). */
  async resume(user: AuthUser, id: string, req: Request, res: Response): Promise<void> {
    await this.owned(user, id);
    (req as TusNodeRequest)[STATE] = { user, id };
    await this.handle(req, res);
  }

  /** OPTIONS: what the server supports (no upload involved). */
  async options(user: AuthUser, req: Request, res: Response): Promise<void> {
    (req as TusNodeRequest)[STATE] = { user, id: '' };
    await this.handle(req, res);
  }

  /** The tus server answers; its text error answers go out as the error envelope. */
  private async handle(req: Request, res: Response): Promise<void> {
    envelopeTextErrors(res, () => requestIdOf(req));
    await this.server.handle(req, res);
  }

  /** Removes expired uploads (row and bytes) and spool files no row names; returns how many uploads went. */
  async sweep(): Promise<number> {
    const expired = await this.uploads.expired(this.clock.now(), SWEEP_BATCH);
    for (const id of expired) await this.discard(id);
    return expired.length + (await this.sweepLeftovers());
  }

  /** The upload's record, when it is the caller's and has not expired; 404 otherwise. */
  private async owned(user: AuthUser, id: string): Promise<TusUploadRecord> {
    const upload = await this.uploads.find(id);
    if (!upload || upload.userId !== user.id || upload.expiresAt <= this.clock.now()) {
      throw new NotFoundException(`no resumable upload ${id} of yours (unknown, expired, completed or another user's)`);
    }
    return upload;
  }

  /**
   * The last byte is in: the file is recorded as a raw upload of the same bytes would be (its
   * digest kept while the parts arrived), and the upload goes. The answer (200 with the raw
   * upload's JSON, or its error envelope) replaces the tus server's 204. When the write failed
   * for a reason that may pass (503) and the upload still holds its bytes, it stays, complete,
   * until it expires: an empty PATCH at its full offset tries again.
   *
   * The tus server calls it once it has let go of the upload, so it takes the upload's lock
   * again: a second completion (such a retry sent twice) or a termination waits for this one,
   * then finds the upload gone (404).
   */
  private async finish(req: TusNodeRequest, upload: Upload): Promise<TusAnswer> {
    const lock = this.locker.newLock(stateOf(req).id);
    try {
      // A request that asks for the upload meanwhile waits: a completion is short.
      await lock.lock(new AbortController().signal, () => undefined);
    } catch (e) {
      const answer = tusErrorAnswer(e as TusError);
      const body = JSON.stringify(errorEnvelope(answer.status_code, answer.body, requestIdOf(req)));
      return { status_code: answer.status_code, headers: JSON_HEADERS, body };
    }
    try {
      return await this.complete(req, upload);
    } finally {
      await lock.unlock();
    }
  }

  private async complete(req: TusNodeRequest, upload: Upload): Promise<TusAnswer> {
    const state = stateOf(req);
    const { user, id } = state;
    const json = JSON_HEADERS;
    try {
      const record = await this.owned(user, id);
      const size = upload.size ?? 0;
      // An empty file is written as an empty raw upload: it has no chunks to take over.
      const content: UploadContent =
        size === 0
          ? { kind: 'stream', body: Readable.from([]), length: 0 }
          : { kind: 'received', ...(await this.store.completed(id, size)) };
      const result = await this.files.save(user, this.fileTarget(req, record), record.options, content, {}, {});
      await this.end(state);
      const headers: Record<string, string> = { ...json };
      if (result.sha256) headers.ETag = `"${result.sha256}"`;
      if (result.created) headers['Content-Location'] = result.url;
      const body = { success: true, oid: result.oid, url: result.url, holder: result.holder };
      return { status_code: HttpStatus.OK, headers, body: JSON.stringify(body) };
    } catch (e) {
      const status = e instanceof HttpException ? e.getStatus() : HttpStatus.INTERNAL_SERVER_ERROR;
      if (!(e instanceof HttpException)) this.logger.error(`completing upload ${id} failed`, (e as Error).stack);
      if (status < 500 || !(await this.holdsAll(upload))) await this.end(state);
      const message = e instanceof HttpException ? messageOf(e) : 'internal error';
      return {
        status_code: status,
        headers: json,
        body: JSON.stringify(errorEnvelope(status, message, requestIdOf(req))),
      };
    }
  }

  private fileTarget(req: Request, target: TusTarget): FileTarget {
    const type = target.holderType ?? undefined;
    return {
      ref: parseHolderRef(target.ref, type),
      fileName: target.fileName,
      link: { base: baseUrl(req, this.config), query: type ? `?type=${encodeURIComponent(type)}` : '' },
    };
  }

  /** The upload is over: it goes now, or, in its creation request, once the tus server has answered. */
  private async end(state: TusRequestState): Promise<void> {
    if (state.createdAt) state.over = true;
    else await this.discard(state.id);
  }

  /**
   * Whether the upload still holds all its bytes: a completion that failed after its chunks
   * became the blob's has none left to try again with. When that cannot be told (the database
   * does not answer), it is kept, to be tried again or to expire.
   */
  private async holdsAll(upload: Upload): Promise<boolean> {
    try {
      return (await this.store.getUpload(upload.id)).offset === upload.size;
    } catch {
      return true;
    }
  }

  /**
   * Removes an upload's bytes, wherever they are (chunks, or a file of FILES_TUS_DIR should the
   * store have changed since it began), and its row; nothing when they are gone already.
   */
  private async discard(id: string): Promise<void> {
    this.store.forget(id);
    await this.content.stores.blobs.deleteUpload(uploadKey(id));
    await this.removeFiles(id);
    await this.uploads.delete(id);
  }

  private async removeFiles(id: string): Promise<void> {
    await rm(join(this.config.filesTusDir, id), { force: true }).catch(() => undefined);
    await rm(join(this.config.filesTusDir, `${id}.json`), { force: true }).catch(() => undefined);
  }

  /**
   * Bytes of uploads that no row names (a user deleted, a crash), older than the expiry: files
   * of FILES_TUS_DIR and chunks of the postgres store.
   */
  private async sweepLeftovers(): Promise<number> {
    const names = await readdir(this.config.filesTusDir).catch(() => [] as string[]);
    const old: string[] = [];
    const before = this.clock.now().getTime() - this.config.filesTusExpiryMs;
    for (const name of names) {
      const info = await stat(join(this.config.filesTusDir, name)).catch(() => null);
      if (info?.isFile() && info.mtimeMs < before) old.push(name.replace(/\.json$/, ''));
    }
    const files = await this.uploads.unknown([...new Set(old)]);
    for (const id of files) await this.removeFiles(id);
    const chunks = await this.uploads.unknown(await this.content.stores.blobs.uploadIds(this.config.filesTusExpiryMs));
    for (const id of chunks) await this.content.stores.blobs.deleteUpload(uploadKey(id));
    return files.length + chunks.length;
  }
}

/** The tus server's configstore: what it keeps of an upload, in the upload's row. */
class RowConfigstore implements KvStore<Upload> {
  constructor(private readonly uploads: TusUploadsRepository) {}

  async get(key: string): Promise<Upload | undefined> {
    return (await this.uploads.info(key)) as Upload | undefined;
  }

  set(key: string, value: Upload): Promise<void> {
    return this.uploads.setInfo(key, value);
  }

  delete(key: string): Promise<void> {
    return this.uploads.delete(key);
  }

  list(): Promise<string[]> {
    return this.uploads.ids();
  }
}

/** The Node request under the tus server's (srvx) request. */
function nodeRequest(req: unknown): TusNodeRequest {
  const node = (req as { runtime?: { node?: { req?: TusNodeRequest } } }).runtime?.node?.req;
  if (!node) throw new Error('the tus server was handed a request without its Node request');
  return node;
}

function stateOf(req: unknown): TusRequestState {
  const node = (req as { [STATE]?: TusRequestState })[STATE] ? (req as TusNodeRequest) : nodeRequest(req);
  const state = node[STATE];
  if (!state) throw new Error('a tus request reached the server without passing the controller');
  return state;
}

function messageOf(e: HttpException): string {
  const response = e.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  return Array.isArray(message) ? message.join('; ') : String(message ?? e.message);
}

function overQuota(
  refused: { refused: 'bytes' | 'uploads'; open: number; bytes: number },
  length: number,
  config: AppConfig,
): HttpException {
  const message =
    refused.refused === 'uploads'
      ? `you have ${refused.open} unfinished resumable uploads, the most one user may have (FILES_TUS_USER_MAX_UPLOADS=${config.filesTusUserMaxUploads}); finish or terminate one first`
      : `a resumable upload of ${length} bytes would bring your unfinished uploads to ${refused.bytes + length} bytes, over the limit of ${config.filesTusUserMaxBytes} (FILES_TUS_USER_MAX_BYTES); finish or terminate some first`;
  return new HttpException(message, HttpStatus.PAYLOAD_TOO_LARGE);
}
