import 'reflect-metadata';
import * as agentcall from '../../../src';
import type { ToolDefinition, ToolDefinitionProblem } from '../../../src';
import { compileFixture as compile } from '../../helpers/compile-fixture';

/** This project's setting, and `tsc --init`'s for ES2022+ targets. */
const settings = [false, true] as const;

function toolsOf(exports: Record<string, unknown>): ToolDefinition[] {
  const Tools = exports.Tools as new () => object;
  return agentcall.toolsFrom(new Tools());
}

function problemsOf(exports: Record<string, unknown>): readonly ToolDefinitionProblem[] {
  try {
    toolsOf(exports);
  } catch (error) {
    if (agentcall.ToolDefinitionError.isInstance(error)) return error.problems;
    throw error;
  }
  throw new Error('toolsFrom did not throw');
}

const CHECKED_ONLY = `
import { Tool, Param } from 'agentcall';
import { IsOptional, IsString, MaxLength } from 'class-validator';

export class PostDto {
  @Param({ description: 'Title' }) title!: string;
  @IsOptional() @IsString() @MaxLength(20) body?: string;
}

export class Tools {
  @Tool({ description: 'Post' })
  post(@Param() dto: PostDto) {
    return dto.title + ':' + (dto.body ?? '-');
  }
}
`;

const UNDECORATED = `
import { Tool, Param } from 'agentcall';

export class PostDto {
  @Param({ description: 'Title' }) title!: string;
  body?: string;
}

export class Tools {
  @Tool({ description: 'Post' })
  post(@Param() dto: PostDto) {
    return dto.title + ':' + (dto.body ?? '-');
  }
}
`;

const INITIALISED = `
import { Tool, Param } from 'agentcall';

export class PostDto {
  @Param({ description: 'Title' }) title!: string;
  draft = false;
}

export class Tools {
  @Tool({ description: 'Post' })
  post(@Param() dto: PostDto) {
    return dto.title;
  }
}
`;

describe.each(settings)('DTO properties without @Param (useDefineForClassFields: %s)', (useDefine) => {
  it('a property with class-validator checks but no @Param is described from those checks, and calls without it pass', async () => {
    const [tool] = toolsOf(compile(CHECKED_ONLY, useDefine));
    expect(tool.schema.function.parameters).toMatchObject({
      properties: { title: { type: 'string', description: 'Title' }, body: { type: 'string', maxLength: 20 } },
      required: ['title'],
    });
    expect(tool.parseParams!('{"title":"Hi"}')).toMatchObject({ success: true, data: { title: 'Hi' } });
    expect(tool.parseParams!('{"title":"Hi","body":"text"}')).toMatchObject({ success: true });
    expect(tool.parseParams!('{"title":"Hi","body":3}')).toMatchObject({ success: false });
  });

  it('a property with an initialiser and no decorator at all is a definition error naming class and property', () => {
    expect(problemsOf(compile(INITIALISED, useDefine))).toEqual([
      expect.objectContaining({
        className: 'Tools',
        methodName: 'post',
        parameterIndex: 0,
        message: expect.stringMatching(/^PostDto\.draft: has no @Param or class-validator decorator/),
      }),
    ]);
  });

  it('no call that leaves out an undecorated property is refused because of it', () => {
    const exports = compile(UNDECORATED, useDefine);
    if (useDefine) {
      // Every `new PostDto()` has an own `body`: visible, so reported before any model sees the tool.
      expect(problemsOf(exports)).toEqual([
        expect.objectContaining({ message: expect.stringMatching(/^PostDto\.body: has no @Param/) }),
      ]);
      return;
    }
    // Declared only, with [[Set]] semantics: nothing of `body` exists at run time, on either side.
    const [tool] = toolsOf(exports);
    expect(Object.keys(tool.schema.function.parameters?.properties as object)).toEqual(['title']);
    expect(tool.parseParams!('{"title":"Hi"}')).toMatchObject({ success: true });
  });
});
