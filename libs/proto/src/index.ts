export * from './generated/google/protobuf/any';
export * from './generated/google/rpc/status';
export * from './generated/grpc/health/v1/health';
export * from './generated/cmsg/conversations/v1/conversations';
export * from './generated/cmsg/conversations/v1/conversation_actions';
export * from './generated/cmsg/actions/v1/actions';
export * from './generated/google/protobuf/struct';
