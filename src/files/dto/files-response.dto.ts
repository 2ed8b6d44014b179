import { ApiProperty } from '@nestjs/swagger';

export class FileItemDto {
  /** absolute address of the file */
  @ApiProperty({ example: 'http://localhost:3000/files/0000000001/spec.txt' })
  url!: string;

  /** content role */
  @ApiProperty({ example: 'PRIMARY' })
  role!: string;

  /** file name (Unicode NFC) */
  @ApiProperty({ example: 'spec.txt' })
  filename!: string;

  /** media type */
  @ApiProperty({ example: 'text/plain' })
  mimetype!: string;

  /** size in bytes */
  @ApiProperty({ example: 36 })
  size!: number;

  /** OID of the content item */
  @ApiProperty({ example: 'OR:wt.content.ApplicationData:12' })
  oid!: string;

  /** SHA-256 of the content, hex; the download ETag and the value for If-Match */
  @ApiProperty({ example: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08' })
  sha256!: string;
}

export class FileListDto {
  /** number of files listed */
  @ApiProperty({ example: 1 })
  count!: number;

  /** ordered by role, then file name */
  items!: FileItemDto[];

  /** whether the object holding the files is checked out (then only its holder may change them) */
  @ApiProperty({ example: false })
  isCheckedOut!: boolean;

  /** who holds it checked out */
  @ApiProperty({ type: String, example: null })
  checkedOutBy!: string | null;

  /** seconds the request took */
  @ApiProperty({ example: 0.0042 })
  _runtime!: number;
}

export class FileWriteResultDto {
  @ApiProperty({ example: true })
  success!: boolean;

  /** OID of the content item written (for DELETE: the one removed) */
  @ApiProperty({ example: 'OR:wt.content.ApplicationData:12' })
  oid!: string;

  /** absolute address of the file (after iterate: in the new iteration) */
  @ApiProperty({ example: 'http://localhost:3000/files/0000000001/spec.txt' })
  url!: string;

  /** OID of the iteration that holds the change (after iterate: the new one) */
  @ApiProperty({ example: 'OR:wt.doc.WTDocument:7' })
  holder!: string;
}
