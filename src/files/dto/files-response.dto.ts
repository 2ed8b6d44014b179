import { ApiProperty } from '@nestjs/swagger';

export class FileItemDto {
  @ApiProperty({
    description: 'absolute address of the file',
    example: 'http://localhost:3000/files/0000000001/spec.txt',
  })
  url!: string;

  @ApiProperty({ description: 'content role', example: 'PRIMARY' })
  role!: string;

  @ApiProperty({ description: 'file name (Unicode NFC)', example: 'spec.txt' })
  filename!: string;

  @ApiProperty({ description: 'media type', example: 'text/plain' })
  mimetype!: string;

  @ApiProperty({ description: 'size in bytes', example: 36 })
  size!: number;

  @ApiProperty({ description: 'OID of the content item', example: 'OR:wt.content.ApplicationData:12' })
  oid!: string;

  @ApiProperty({
    description: 'SHA-256 of the content, hex; the download ETag and the value for If-Match',
    example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  })
  sha256!: string;
}

export class FileListDto {
  @ApiProperty({ description: 'number of files listed', example: 1 })
  count!: number;

  @ApiProperty({ type: [FileItemDto], description: 'ordered by role, then file name' })
  items!: FileItemDto[];

  @ApiProperty({ description: 'seconds the request took', example: 0.0042 })
  _runtime!: number;
}

export class FileWriteResultDto {
  @ApiProperty({ example: true })
  success!: boolean;

  @ApiProperty({
    description: 'OID of the content item written (for DELETE: the one removed)',
    example: 'OR:wt.content.ApplicationData:12',
  })
  oid!: string;

  @ApiProperty({
    description: 'absolute address of the file (after iterate: in the new iteration)',
    example: 'http://localhost:3000/files/0000000001/spec.txt',
  })
  url!: string;

  @ApiProperty({
    description: 'OID of the iteration that holds the change (after iterate: the new one)',
    example: 'OR:wt.doc.WTDocument:7',
  })
  holder!: string;
}
