/** What one HTTP exchange hands back to the client, shared by the transport and its attempts (a file of its own so neither imports the other). */

/** Where an answer's body goes chunk by chunk (see `OutgoingRequest.sink`). */
export interface BodySink {
  write(chunk: Buffer): void;
}

export interface RawResponse {
  status: number;
  statusText: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body, decoded when it came gzip, deflate or br encoded. */
  body: Buffer;
  /** Attempts it took, for messages. */
  attempts: number;
}
