// The category tree of the sider; selecting one narrows the search, selecting it again widens it.
import { Tree, Typography } from 'antd';
import { Untranslated } from './MerchantText';
import type { TreeDataNode } from 'antd';
import { useMemo } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { buildCategoryTree, type CategoryNode } from '../lib/category-tree';
import { openableRow } from '../lib/openable-row';
import { useCategories } from '../queries/catalog';
import { useUiStore } from '../state/ui-store';

function toTreeData(nodes: readonly CategoryNode[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.catalogRef,
    title: (
      <span data-testid="category-node">
        <Untranslated>{node.name}</Untranslated> <Typography.Text type="secondary">{node.productCount}</Typography.Text>
      </span>
    ),
    children: toTreeData(node.children),
  }));
}

export function CategoryTree() {
  const { t } = useI18n();
  const categories = useCategories(true);
  const catalogRef = useUiStore((state) => state.filters.catalogRef);
  const setFilters = useUiStore((state) => state.setFilters);
  // "All categories" answers the keyboard as every row that acts does (lib/openable-row.ts).
  const all = openableRow(() => setFilters({ catalogRef: null }), { label: t('catalog.allCategories'), kind: 'button' });
  const treeData = useMemo(() => toTreeData(buildCategoryTree(categories.data ?? [])), [categories.data]);
  return (
    <div className="category-tree" data-testid="category-tree">
      <Typography.Text strong>{t('catalog.categories')}</Typography.Text>
      <div {...all} className={catalogRef === null ? `category-all category-all-active ${all.className}` : `category-all ${all.className}`} aria-pressed={catalogRef === null}>
        {t('catalog.allCategories')}
      </div>
      <Tree
        blockNode
        treeData={treeData}
        selectedKeys={catalogRef === null ? [] : [catalogRef]}
        onSelect={(selected) => {
          const first = selected[0];
          setFilters({ catalogRef: typeof first === 'number' ? first : null });
        }}
      />
    </div>
  );
}
