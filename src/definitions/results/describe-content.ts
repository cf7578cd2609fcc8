import type { ToolContentPart } from '../../toolCall/type';

/**
 * The text a model reads for result content: text as it is, embedded text resources with their URI, and a line
 * for what a chat model cannot read (images, audio, binary resources, links). Parts are joined with a newline.
 *
 * @example describeContent([{ type: 'text', text: 'Hi' }, { type: 'image', data: 'iVBO…', mimeType: 'image/png' }])
 * // 'Hi\n[image: image/png, 1234 bytes]'
 */
export function describeContent(parts: readonly ToolContentPart[]): string {
  return parts.map(describePart).join('\n');
}

function describePart(part: ToolContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'image':
    case 'audio':
      return `[${part.type}: ${part.mimeType}, ${base64Bytes(part.data)} bytes]`;
    case 'resource': {
      const { resource } = part;
      if ('text' in resource && typeof resource.text === 'string')
        return `[resource: ${resource.uri}]\n${resource.text}`;
      const blob = 'blob' in resource && typeof resource.blob === 'string' ? resource.blob : '';
      return `[resource: ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}, ${base64Bytes(blob)} bytes]`;
    }
    case 'resource_link':
      return `[resource link: ${part.name} ${part.uri}]`;
    default:
      return `[${(part as { type: string }).type} content]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
