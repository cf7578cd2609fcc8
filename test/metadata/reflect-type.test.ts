import 'reflect-metadata';
import { Tool } from '../../src/decorators/tool.decorator';
import { Param } from '../../src/decorators/param.decorator';
import { defineDesignType, reflectParamTypes, reflectPropertyType } from '../../src/metadata/reflect-type';

describe('reflect-type', () => {
  class Dto {
    @Param() name!: string;
  }
  class Tools {
    @Tool()
    run(@Param('a') a: number, @Param() dto: Dto) {
      return [a, dto];
    }
  }

  it('reads the parameter types TypeScript emitted', () => {
    expect(reflectParamTypes(Tools, 'run')).toEqual([Number, Dto]);
    expect(reflectParamTypes(Tools, 'missing')).toBeUndefined();
  });

  it('reads and defines property types', () => {
    expect(reflectPropertyType(Dto, 'name')).toBe(String);
    class Runtime {}
    defineDesignType(Runtime, 'when', Date);
    expect(reflectPropertyType(Runtime, 'when')).toBe(Date);
  });

  it('loading agentcall installs the reflect-metadata polyfill itself, so a user never has to', () => {
    const original = Reflect.getMetadata;
    try {
      (Reflect as { getMetadata?: unknown }).getMetadata = undefined;
      jest.isolateModules(() => {
        jest.requireActual('../../src/index');
      });
      expect(typeof Reflect.getMetadata).toBe('function');
    } finally {
      Reflect.getMetadata = original;
    }
  });
});
