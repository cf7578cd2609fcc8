import { Injectable } from '@nestjs/common';
import { Exclude } from 'class-transformer';
import { ArrayMaxSize, IsDateString, IsEmail, Length, Matches } from 'class-validator';
import { Param, Tool } from '../../src';

export enum Priority {
  Low = 'low',
  Normal = 'normal',
  High = 'high',
}

/** One to-do item as the model sees it: `ownerId` is kept away from the model by `@Exclude`. */
export class TodoItem {
  id!: string;
  title!: string;
  priority!: Priority;
  due?: string | undefined;
  tags!: string[];
  done!: boolean;
  @Exclude() ownerId!: string;
}

/** An in-memory store, injectable so every tool call of an application shares it. */
@Injectable()
export class TodoStore {
  private readonly items = new Map<string, TodoItem>();
  private nextId = 1;

  add(fields: Omit<TodoItem, 'id' | 'done' | 'ownerId'>): TodoItem {
    const item = Object.assign(new TodoItem(), {
      ...fields,
      id: `todo-${this.nextId++}`,
      done: false,
      ownerId: 'user-42',
    });
    this.items.set(item.id, item);
    return item;
  }

  list(): TodoItem[] {
    return [...this.items.values()];
  }

  get(id: string): TodoItem | undefined {
    return this.items.get(id);
  }

  delete(id: string): boolean {
    return this.items.delete(id);
  }
}

export class CreateTodoDto {
  @Param({ description: 'What to do' })
  @Length(1, 120)
  title!: string;

  @Param({ description: 'Priority, default "normal"', enum: Priority, optional: true })
  priority?: Priority;

  @Param({ description: 'Due date, ISO 8601 (e.g. 2026-12-24)', optional: true })
  @IsDateString()
  due?: string | undefined;

  @Param({ description: 'Free-form labels', optional: true, type: () => [String] })
  @ArrayMaxSize(10)
  tags?: string[];
}

const TODO_ID = Matches(/^todo-\d+$/, { message: 'id must look like "todo-1"' });

/** A to-do list: create, list, complete, delete and share, with validation the model can read and correct. */
@Injectable()
export class TodoTools {
  constructor(private readonly store: TodoStore) {}

  @Tool({ name: 'add_todo', description: 'Add an item to the to-do list.' })
  add(@Param() todo: CreateTodoDto): TodoItem {
    return this.store.add({
      title: todo.title,
      priority: todo.priority ?? Priority.Normal,
      due: todo.due,
      tags: todo.tags ?? [],
    });
  }

  @Tool({ name: 'list_todos', description: 'List to-do items.' })
  list(
    @Param('status', { description: 'Which items, default "open"', enum: ['open', 'done', 'all'], optional: true })
    status?: 'open' | 'done' | 'all',
  ): TodoItem[] {
    const wanted = status ?? 'open';
    return this.store.list().filter((item) => wanted === 'all' || item.done === (wanted === 'done'));
  }

  @Tool({ name: 'complete_todo', description: 'Mark a to-do item as done.' })
  complete(@Param('id', { description: 'Item id, e.g. "todo-1"' }, TODO_ID) id: string): TodoItem {
    const item = this.require(id);
    item.done = true;
    return item;
  }

  @Tool({ name: 'delete_todo', description: 'Delete a to-do item.' })
  delete(@Param('id', { description: 'Item id, e.g. "todo-1"' }, TODO_ID) id: string): string {
    this.require(id);
    this.store.delete(id);
    return `Deleted ${id}`;
  }

  /** Reaches outside the app (an email), so a person approves each call before it runs. */
  @Tool({
    name: 'share_todo',
    description: 'Share a to-do item with someone by email. The user approves each share before it is sent.',
    needsApproval: true,
  })
  share(
    @Param('id', { description: 'Item id, e.g. "todo-1"' }, TODO_ID) id: string,
    @Param('email', { description: 'Who to share it with' }, IsEmail()) email: string,
  ): string {
    const item = this.require(id);
    return `Shared ${id} ("${item.title}") with ${email}`;
  }

  private require(id: string): TodoItem {
    const item = this.store.get(id);
    if (!item) throw new Error(`No to-do item ${id}`);
    return item;
  }
}
