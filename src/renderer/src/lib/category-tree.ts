// The merchant's flat category list (parentRef links) as a tree for the sider. A category whose
// parent is missing is shown at the top rather than lost; cycles cannot recurse forever.
import type { CategoryView } from '../../../shared/ipc/views/catalog';

export interface CategoryNode {
  readonly catalogRef: number;
  readonly name: string;
  readonly productCount: number;
  readonly children: CategoryNode[];
}

export function buildCategoryTree(categories: readonly CategoryView[]): CategoryNode[] {
  const nodes = new Map<number, CategoryNode>();
  for (const category of categories) {
    nodes.set(category.catalogRef, { catalogRef: category.catalogRef, name: category.name, productCount: category.productCount, children: [] });
  }
  const roots: CategoryNode[] = [];
  for (const category of categories) {
    const node = nodes.get(category.catalogRef);
    if (node === undefined) continue;
    const parent = category.parentRef === null ? undefined : nodes.get(category.parentRef);
    if (parent === undefined || parent === node || isDescendant(node, parent)) roots.push(node);
    else parent.children.push(node);
  }
  const byName = (a: CategoryNode, b: CategoryNode): number => a.name.localeCompare(b.name);
  const sortDeep = (list: CategoryNode[], depth: number): void => {
    list.sort(byName);
    if (depth < 32) for (const node of list) sortDeep(node.children, depth + 1);
  };
  sortDeep(roots, 0);
  return roots;
}

function isDescendant(ancestor: CategoryNode, candidate: CategoryNode): boolean {
  const stack = [...ancestor.children];
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined) break;
    if (next === candidate) return true;
    stack.push(...next.children);
  }
  return false;
}
