import 'reflect-metadata';
import { Tool } from '../../src/decorators/tool.decorator';
import { Param } from '../../src/decorators/param.decorator';
import {
  defineDesignType,
  isReflectMetadataLoaded,
  reflectParamTypes,
  reflectPropertyType,
} from '../../src/metadata/reflect-type';

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

  it('detects a missing polyfill', () => {
    expect(isReflectMetadataLoaded()).toBe(true);
    const original = Reflect.getMetadata;
    try {
      (Reflect as { getMetadata?: unknown }).getMetadata = undefined;
      expect(isReflectMetadataLoaded()).toBe(false);
    } finally {
      Reflect.getMetadata = original;
    }
  });
});
