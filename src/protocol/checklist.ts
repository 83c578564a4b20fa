// The checklist the model keeps while it works (the todo tool), as the bus, the log and the panel carry it. Types
// only.

export type TodoStatus = 'pending' | 'in_progress' | 'done';

export interface TodoItem {
  readonly text: string;
  readonly status: TodoStatus;
}
