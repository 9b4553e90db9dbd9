import { useState } from 'react';
import {
  PRODUCT_PAGE_SIZE,
  PRODUCT_PRICE_TYPE_LABELS,
  describeProductPrice,
  formatCents,
} from '@studio/contracts';
import {
  Button,
  QueryFailure,
  Table,
  keepPreviousData,
  productQueries,
  useDrawer,
  useQuery,
  type ProductListQuery,
  type ProductSummary,
  PageFrame,
  useListSearch,
  ListSearch,
  emptyListText,
  listPagination,
  thumbnailColumn,
} from '@studio/ui';

interface ProductListParams {
  search: string;
  page: number;
  limit: number;
}

function listQuery({ search, page, limit }: ProductListParams): ProductListQuery {
  return { page, limit, ...(search.trim() ? { search: search.trim() } : {}) };
}

/** /admin/products: the organization's products (image, name, price, category), searched and paged by the server. */
export function ProductsPage() {
  const drawer = useDrawer();
  const [query, setQuery] = useState<ProductListParams>({ search: '', page: 1, limit: PRODUCT_PAGE_SIZE });
  const search = useListSearch(setQuery);
  // One page at a time; the previous page stays while the next loads. A failure shows Retry.
  const list = useQuery({ ...productQueries.list(listQuery(query)), placeholderData: keepPreviousData });
  const answer = list.data;

  // The drawer invalidates on save; this also covers a close after an edit elsewhere.
  const openProduct = (product_id?: string) => drawer.open('product', product_id ? { product_id } : {});

  return (
    <PageFrame
      title="Products"
      actions={
        <>
          <Button onClick={() => drawer.open('share', { mode: 'product' })}>Share product</Button>
          <Button type="primary" onClick={() => openProduct()}>
            New product
          </Button>
        </>
      }
    >
      <ListSearch search={search} label="Search products" placeholder="Search by name" />
      <QueryFailure query={list} title="Could not load the products" />
      <Table<ProductSummary>
        rowKey="product_id"
        loading={list.isFetching}
        dataSource={answer?.products ?? []}
        onChange={(pagination) => setQuery((q) => ({ ...q, page: pagination.current ?? 1 }))}
        onRow={(p) => ({ onClick: () => openProduct(p.product_id), style: { cursor: 'pointer' } })}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: emptyListText('product', query.search, list.isError) }}
        pagination={listPagination('product', {
          current: query.page,
          pageSize: query.limit,
          total: answer?.totalCount ?? 0,
        })}
        columns={[
          thumbnailColumn<ProductSummary>((p) => p.image),
          {
            key: 'name',
            title: 'Name',
            render: (_, p) => (
              <Button
                type="link"
                style={{ padding: 0 }}
                onClick={(event) => {
                  event.stopPropagation();
                  openProduct(p.product_id);
                }}
              >
                {p.name}
              </Button>
            ),
          },
          { key: 'price', title: 'Price', render: (_, p) => describeProductPrice(p, formatCents) },
          { key: 'category', title: 'Category', render: (_, p) => PRODUCT_PRICE_TYPE_LABELS[p.category] },
        ]}
      />
    </PageFrame>
  );
}
