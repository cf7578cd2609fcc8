// Decorated classes need the reflect-metadata polyfill before they load.
import 'reflect-metadata';
import { IsIn, IsString } from 'class-validator';
import { Param, Prompt, Resource, toolsFrom } from '../../src';
import { promptsFrom, resourcesFrom, serveStdio } from '../../src/mcp';
import { CalculatorTools } from '../tools';

const PAGES = new Map([
  ['intro', '# Intro'],
  ['install', '# Install'],
]);

/** Documentation served as MCP resources: one fixed URI and a template whose variable completes. */
export class DocsResources {
  @Resource({ uri: 'docs://readme', mimeType: 'text/markdown', description: 'The readme' })
  readme(): string {
    return '# Sample docs';
  }

  @Resource({ uriTemplate: 'docs://pages/{slug}', mimeType: 'text/markdown', complete: { slug: [...PAGES.keys()] } })
  page({ slug }: { slug: string }): string {
    return PAGES.get(slug) ?? `# No page named ${slug}`;
  }
}

/** The arguments of the review prompt: its fields are the prompt's arguments, the enum completes. */
export class ReviewArgs {
  @Param({ description: 'The language of the code', enum: ['typescript', 'python'] })
  @IsString()
  @IsIn(['typescript', 'python'])
  language!: string;
}

/** A prompt a host offers its user. */
export class ReviewPrompts {
  @Prompt({ name: 'review', description: 'Review code for bugs', arguments: ReviewArgs })
  review({ language }: ReviewArgs): string {
    return `Review this ${language} code for bugs.`;
  }
}

async function main(): Promise<void> {
  await serveStdio(toolsFrom(new CalculatorTools()), {
    name: 'agentcall-docs',
    version: '1.0.0',
    resources: resourcesFrom(new DocsResources()),
    prompts: promptsFrom(new ReviewPrompts()),
  });
}

if (require.main === module) void main();
