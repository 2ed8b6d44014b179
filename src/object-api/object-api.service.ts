import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type { AuthUser } from '../auth/auth-user.js';
import { UsersRepository } from '../auth/users.repository.js';
import { CatalogService } from '../catalog/catalog.service.js';
import { OidClass, parseOid } from '../catalog/oid.js';
import { clip } from '../common/clip.js';
import type { WithoutRuntime } from '../common/answers-runtime.js';
import { ObjectLookupService } from '../objects/versioned/object-lookup.service.js';
import type { ApiListQueryDto, ObjectListQueryDto } from './dto/object-api-query.dto.js';
import type { ObjectItemDto, ObjectListDto, ApiUserItemDto, ApiUserListDto } from './dto/object-api-response.dto.js';
import { objectItem, objectPointer, userItem, userPointer } from './object-api-answers.js';
import { flag, OBJECT_RESOURCES, parseItemRef, wildcardFilter, type ObjectResource } from './object-api-params.js';

/**
 * The object API of the original gateway (api/1.0): lists of documents, CAD documents, parts
 * and users as pointers, and one object or user in the original's item shape. Every object is
 * read with the caller's rights (objects/ObjectLookupService); users' names are open to all.
 */
@Injectable()
export class ObjectApiService {
  constructor(
    private readonly objects: ObjectLookupService,
    private readonly users: UsersRepository,
    private readonly catalog: CatalogService,
  ) {}

  async list(
    user: AuthUser,
    resource: ObjectResource,
    q: ObjectListQueryDto,
    base: string,
  ): Promise<WithoutRuntime<ObjectListDto>> {
    const rows = await this.objects.list(user, {
      classes: await this.classesOf(resource),
      namePattern: wildcardFilter(q.name),
      numberPattern: wildcardFilter(q.number),
      state: q.state ?? null,
      creator: q.creator ?? null,
      modifier: q.modifier ?? null,
      iterations: flag(q.latest_released, false) ? 'released' : flag(q.latest_iteration, true) ? 'latest' : 'all',
      start: q.start,
      limit: q.limit,
    });
    const items = rows.map((r) => objectPointer(base, resource, r));
    return { count: items.length, items };
  }

  async read(
    user: AuthUser,
    resource: ObjectResource,
    text: string,
    base: string,
  ): Promise<WithoutRuntime<ObjectItemDto>> {
    const classes = await this.classesOf(resource);
    const found = await this.objects.find(user, parseItemRef(text, resource, classes), classes);
    return objectItem(base, resource, found);
  }

  async listUsers(q: ApiListQueryDto, base: string): Promise<WithoutRuntime<ApiUserListDto>> {
    const rows = await this.users.listPublic(wildcardFilter(q.name), q.start, q.limit);
    const items = rows.map((u) => userPointer(base, u));
    return { count: items.length, items };
  }

  async readUser(text: string, base: string): Promise<WithoutRuntime<ApiUserItemDto>> {
    const found = await this.users.findPublic(userKey(text));
    if (!found) throw new NotFoundException(`no user "${clip(text)}"`);
    return userItem(base, found);
  }

  /** The resource's class and the classes below it in the catalog in force (declared ones too). */
  private async classesOf(resource: ObjectResource): Promise<readonly string[]> {
    return (await this.catalog.current()).concreteBelow(OBJECT_RESOURCES[resource], 'iteration');
  }
}

/** A user's OID (OR:wt.org.WTUser:<id>) or login name. */
function userKey(text: string): { id: number } | { name: string } {
  if (!text.startsWith('OR:')) return { name: text };
  const oid = parseOid(text);
  if (!oid) throw new BadRequestException(`"${clip(text)}" is not an OID (OR:<class>:<id>)`);
  if (oid.cls !== OidClass.user) {
    throw new BadRequestException(`users are objects of ${OidClass.user}, not of ${clip(oid.cls)}`);
  }
  return { id: oid.id };
}
