/** What a ts-proto message type gives: its binary encoding, as grpc-js sends it. */
interface MessageCodec<Message> {
  encode(message: Message): { finish(): Uint8Array };
  decode(bytes: Uint8Array): Message;
}

/** The message as the other side of an RPC receives it (for specs). */
export function overTheWire<Message>(codec: MessageCodec<Message>, message: Message): Message {
  return codec.decode(codec.encode(message).finish());
}
