import { Global, Module } from '@nestjs/common';
import { DatabasePools } from './database-pools.js';
import { ObjectLocks } from './object-locks.js';
import { PrismaService } from './prisma.service.js';
import { ReadReplica } from './read-replica.js';

@Global()
@Module({
  providers: [DatabasePools, PrismaService, ReadReplica, ObjectLocks],
  exports: [DatabasePools, PrismaService, ReadReplica, ObjectLocks],
})
export class PrismaModule {}
