import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service.js';

export interface UserRecord {
  id: number;
  name: string;
  passwordHash: string;
  admin: boolean;
  fullName: string | null;
  email: string | null;
  disabled: boolean;
}

const USER_COLUMNS = {
  id: true,
  name: true,
  passwordHash: true,
  admin: true,
  fullName: true,
  email: true,
  disabled: true,
} as const;

@Injectable()
export class UsersRepository {
  constructor(private readonly prisma: PrismaService) {}

  findByName(name: string): Promise<UserRecord | null> {
    return this.prisma.user.findUnique({ where: { name }, select: USER_COLUMNS });
  }
}
