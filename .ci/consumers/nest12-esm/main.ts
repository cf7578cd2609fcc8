// An ESM NestJS 12 app (TypeScript 7, `tsc --init` defaults, openai 6) running the shared shop app
// (../nest-shop-app.ts): a guard, a global interceptor and an exception filter around tool calls, and request-scoped
// tool providers resolved per run, from the packed package.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { NestFactory } from '@nestjs/core';
import { ToolRegistry } from 'agentcall/nestjs';
import { checkShopApp } from './nest-shop-app.js';

await checkShopApp();

// One agentcall/nestjs whether imported or required, over the one Nest the app imported (through require(esm)).
const require = createRequire(import.meta.url);
assert.equal(require('agentcall/nestjs').ToolRegistry, ToolRegistry);
assert.equal(require('@nestjs/core').NestFactory, NestFactory);

console.log(
  'consumer nest12-esm: compiled without a cast; a guard refused a guest and let an admin through, an interceptor ' +
    'timed every call, a filter rewrote a domain error, request-scoped tools served their own run',
);
