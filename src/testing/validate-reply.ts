import { ScriptedReplyError } from './errors';
import type { RecordedResponse, ScriptedReply } from './types';

const COUNT_FIELDS = ['cutAfter', 'malformedChunkAt', 'streamErrorAt', 'delayMs', 'chunkDelayMs'] as const;

/**
 * Refuse a reply the server could only serve by guessing, with a message naming the field.
 *
 * Function turns are typed but run at request time, so their result is checked too; a wrong script must
 * fail loudly rather than make the client under test pass or fail for an unrelated reason.
 */
export function validateReply(reply: unknown): asserts reply is ScriptedReply {
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) {
    throw new ScriptedReplyError(`scripted reply must be an object, got ${JSON.stringify(reply)}`);
  }
  const r = reply as ScriptedReply;
  if (r.chunkSize !== undefined && !(Number.isInteger(r.chunkSize) && r.chunkSize > 0)) {
    throw new ScriptedReplyError(`scripted reply: chunkSize must be a positive integer, got ${r.chunkSize}`);
  }
  if (r.status !== undefined && !(Number.isInteger(r.status) && r.status >= 400 && r.status <= 599)) {
    throw new ScriptedReplyError(`scripted reply: status must be an HTTP error status (400-599), got ${r.status}`);
  }
  for (const field of COUNT_FIELDS) {
    const value = r[field];
    if (value !== undefined && !(Number.isInteger(value) && value >= 0)) {
      throw new ScriptedReplyError(`scripted reply: ${field} must be a non-negative integer, got ${value}`);
    }
  }
  if (r.recorded !== undefined) validateRecorded(r.recorded);
  if (r.refusal !== undefined && typeof r.refusal !== 'string') {
    throw new ScriptedReplyError(`scripted reply: refusal must be a string, got ${JSON.stringify(r.refusal)}`);
  }
  for (const field of ['items', 'annotations'] as const) {
    const list: unknown = r[field];
    if (list !== undefined && !(Array.isArray(list) && list.every(isRecord))) {
      throw new ScriptedReplyError(`scripted reply: ${field} must be a list of objects, got ${JSON.stringify(list)}`);
    }
  }
  for (const call of r.toolCalls ?? []) {
    if (typeof call?.name !== 'string' || call.name === '') {
      throw new ScriptedReplyError(`scripted reply: every tool call needs a name, got ${JSON.stringify(call)}`);
    }
    if (call.type === 'custom' && (call.arguments !== undefined || call.argumentChunks !== undefined)) {
      throw new ScriptedReplyError(
        `scripted reply: custom tool call '${call.name}' takes its text as input, not arguments or argumentChunks`,
      );
    }
    if (call.argumentChunks !== undefined && call.arguments !== undefined) {
      const joined = call.argumentChunks.join('');
      const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
      if (joined !== args) {
        throw new ScriptedReplyError(
          `scripted reply: argumentChunks of tool call '${call.name}' join to ${JSON.stringify(joined)}, ` +
            `not its arguments ${JSON.stringify(args)}`,
        );
      }
    }
  }
}

function validateRecorded(recorded: unknown): void {
  const r = recorded as RecordedResponse | null;
  if (typeof r !== 'object' || r === null) {
    throw new ScriptedReplyError(`scripted reply: recorded must be an object, got ${JSON.stringify(recorded)}`);
  }
  if (r.status !== undefined && !(Number.isInteger(r.status) && r.status >= 200 && r.status <= 599)) {
    throw new ScriptedReplyError(`scripted reply: recorded.status must be an HTTP status (200-599), got ${r.status}`);
  }
  const pieces: readonly unknown[] = Array.isArray(r.body) ? r.body : [r.body];
  if (!pieces.every((piece) => typeof piece === 'string' || piece instanceof Uint8Array)) {
    throw new ScriptedReplyError('scripted reply: recorded.body must be a string, bytes, or a list of them');
  }
}

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
