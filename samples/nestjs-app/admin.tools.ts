import { Injectable, UseFilters, UseGuards } from '@nestjs/common';
import { Param, Tool } from '../../src';
import { TodoStore, type TodoItem } from '../tools';
import { Roles, RolesGuard } from './roles.guard';
import { TodoNotFoundError, TodoNotFoundFilter } from './todo-not-found.filter';

/**
 * Tools only some callers may use. The guard runs before each call; a refused call never reaches the method,
 * and the model reads "Tool call not allowed". The filter turns a missing item into advice for the model.
 */
@Injectable()
@UseGuards(RolesGuard)
@UseFilters(TodoNotFoundFilter)
export class AdminTools {
  constructor(private readonly store: TodoStore) {}

  @Tool({ name: 'clear_todos', description: 'Delete every item of the to-do list (admins only).' })
  @Roles('admin')
  clearTodos(): string {
    const items = this.store.list();
    for (const item of items) this.store.delete(item.id);
    return `Deleted ${items.length} items.`;
  }

  @Tool({ name: 'reopen_todo', description: 'Mark a done item as open again (admins only).' })
  @Roles('admin')
  reopenTodo(@Param('id', { description: 'Item id, e.g. "todo-1"' }) id: string): TodoItem {
    const item = this.store.get(id);
    if (!item) throw new TodoNotFoundError(id);
    item.done = false;
    return item;
  }
}
