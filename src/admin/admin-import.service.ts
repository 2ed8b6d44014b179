import { Injectable } from '@nestjs/common';
import { UsersRepository, type NewUser, type UserRecord } from '../auth/users.repository.js';
import { AdminContainersRepository, type MemberRecord } from './containers.repository.js';
import { AdminRulesRepository, type AdminRuleRecord } from './rules.repository.js';
import { AdminWorkspacesRepository } from './workspaces.repository.js';

/**
 * What administration holds, as the dataset import (src/import) writes it: users (rows through
 * auth's UsersRepository), containers and their members, numbering rules, workspaces. Each
 * write runs in the caller's transaction (PrismaService.transaction).
 */
@Injectable()
export class AdminImportService {
  constructor(
    private readonly users: UsersRepository,
    private readonly containers: AdminContainersRepository,
    private readonly rules: AdminRulesRepository,
    private readonly workspaces: AdminWorkspacesRepository,
  ) {}

  /** Whether the database has any user (the demo data goes only into one that has none). */
  anyUsers(): Promise<boolean> {
    return this.users.any();
  }

  findUser(name: string): Promise<UserRecord | null> {
    return this.users.findByName(name);
  }

  /** Creates or updates a user (`existingId`: the stored one); the user's id. */
  putUser(existingId: number | null, name: string, fields: Omit<NewUser, 'name'>): Promise<number> {
    return this.users.putImported(existingId, name, fields);
  }

  containerId(name: string): Promise<number | null> {
    return this.containers.idOf(name);
  }

  putContainer(name: string, cls: string, description: string | null): Promise<number> {
    return this.containers.putImported(name, cls, description);
  }

  putMember(containerId: number, userId: number, role: MemberRecord['role']): Promise<void> {
    return this.containers.putImportedMember(containerId, userId, role);
  }

  /** A container's rules; counters only move forward. */
  putRules(containerId: number, rules: AdminRuleRecord[]): Promise<void> {
    return this.rules.importRules(containerId, rules);
  }

  putWorkspace(name: string, containerId: number, ownerId: number): Promise<void> {
    return this.workspaces.putImported(name, containerId, ownerId);
  }
}
