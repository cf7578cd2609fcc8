import { Ctx } from '../../src/decorators/ctx.decorator';
import { Param } from '../../src/decorators/param.decorator';
import { Tool } from '../../src/decorators/tool.decorator';
import { getMetadataStorage } from '../../src/metadata/metadata-storage';
import type { ToolExecuteContext } from '../../src/toolCall/type';

describe('@Ctx', () => {
  it('records a context parameter at its index, next to named parameters', () => {
    class Fetcher {
      @Tool()
      fetchPage(@Ctx() ctx: ToolExecuteContext, @Param('url') url: string) {
        return `${url}${ctx.call.id}`;
      }
    }
    expect(getMetadataStorage().getParams(Fetcher, 'fetchPage')).toEqual([
      { kind: 'context', target: Fetcher, methodName: 'fetchPage', index: 0 },
      expect.objectContaining({ kind: 'param', index: 1, name: 'url' }),
    ]);
  });
});
