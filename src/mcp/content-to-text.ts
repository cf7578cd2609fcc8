import type { ContentBlock } from '@modelcontextprotocol/client';

/**
 * The text a model reads for a tool result's content: text blocks as they are, embedded text resources with
 * their URI, and a one-line description for what a chat model cannot read (images, audio, binary resources,
 * links). Blocks are joined with a newline. Without content, the structured content as JSON.
 *
 * @example contentToText([{ type: 'text', text: 'Hi' }, { type: 'image', data: 'iVBO…', mimeType: 'image/png' }])
 * // 'Hi\n[image: image/png, 1234 bytes]'
 *
 * @internal
 */
export function contentToText(content: readonly ContentBlock[] | undefined, structured?: unknown): string {
  if ((!content || content.length === 0) && structured !== undefined) return JSON.stringify(structured);
  return (content ?? []).map(describeBlock).join('\n');
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource': {
      const { resource } = block;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource: ${resource.uri}]\n${resource.text}`;
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}, ${base64Bytes(blob)} bytes]`;
    }
    case 'resource_link':
      return `[resource link: ${block.name} ${block.uri}]`;
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
