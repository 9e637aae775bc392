// The category tree of the sider; selecting one narrows the search, selecting it again widens it.
import { Tree, Typography } from 'antd';
import { Untranslated } from './MerchantText';
import type { TreeDataNode } from 'antd';
import { useMemo } from 'react';
import { useI18n } from '../i18n/use-i18n';
import { buildCategoryTree, type CategoryNode } from '../lib/category-tree';
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
  const treeData = useMemo(() => toTreeData(buildCategoryTree(categories.data ?? [])), [categories.data]);
  return (
    <div className="category-tree" data-testid="category-tree">
      <Typography.Text strong>{t('catalog.categories')}</Typography.Text>
      <div
        className={catalogRef === null ? 'category-all category-all-active' : 'category-all'}
        role="button"
        tabIndex={0}
        onClick={() => setFilters({ catalogRef: null })}
        onKeyDown={(event) => {
          if (event.key === 'Enter') setFilters({ catalogRef: null });
        }}
      >
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
