import { Inject, Injectable } from '@nestjs/common';
import type { AuthUser } from '../../auth/auth-user.js';
import { PermissionsService } from '../../auth/permissions.service.js';
import type { ObjectRef } from '../../catalog/object-ref.js';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { pickReadable } from './object-access.js';
import {
  ObjectListsRepository,
  type IterationChoice,
  type ObjectListFilter,
  type ObjectListRow,
} from './object-lists.repository.js';
import type { ObjectRecord } from './object-records.repository.js';
import { ObjectsRepository } from './objects.repository.js';

/** What a list asks for; the containers the caller may read are added here. */
export type ObjectListRequest = Omit<ObjectListFilter, 'readable' | 'iterations'> & {
  iterations: 'latest' | 'all' | 'released';
};

/**
 * Reads of versioned objects for other modules (the object API of api/1.0): one object a
 * reference names within some classes, and lists by criteria, always with the caller's rights.
 */
@Injectable()
export class ObjectLookupService {
  constructor(
    private readonly objects: ObjectsRepository,
    private readonly lists: ObjectListsRepository,
    private readonly permissions: PermissionsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The iteration `ref` names among objects of `classes`: 404 when there is none the caller may read. */
  async find(user: AuthUser, ref: ObjectRef, classes: readonly string[]): Promise<ObjectRecord> {
    const found = (await this.objects.findByRef(ref, user.id)).filter((r) => classes.includes(r.cls));
    return pickReadable(user, ref.text, found);
  }

  /** Iterations matching the request in containers the caller may read; `released`: OBJECTS_RELEASED_STATES. */
  async list(user: AuthUser, request: ObjectListRequest): Promise<ObjectListRow[]> {
    const readable = await this.permissions.readableContainerIds(user);
    const iterations: IterationChoice =
      request.iterations === 'released'
        ? { kind: 'released' as const, states: [...this.config.objectsReleasedStates] }
        : { kind: request.iterations };
    return this.lists.list({ ...request, iterations, readable });
  }
}
