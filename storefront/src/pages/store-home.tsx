import type { PublicCourseCard, PublicProduct, PublicStore } from '@studio/contracts';
import { dateTimeInZone, priceText, productPriceText } from '../format';
import { appLinks } from '../links';
import type { PageProps } from '../types';
import { Layout } from './layout';

const KIND_LABEL: Record<PublicProduct['kind'], string> = {
  oneTime: 'One-time purchase',
  subscription: 'Membership',
  leadMagnet: 'Free download',
};

function nextSession(course: PublicCourseCard, zone: string): string {
  if (course.next_starts_at) return dateTimeInZone(course.next_starts_at, zone);
  return course.activity_type === 'appointment' ? 'By appointment' : 'No upcoming sessions';
}

function CourseCard({ course, base, zone }: { course: PublicCourseCard; base: string; zone: string }) {
  return (
    <li className="card">
      {course.image_url ? <img className="card-image" src={course.image_url} alt="" loading="lazy" /> : null}
      <div className="card-body">
        <h3 className="card-title">
          <a href={appLinks.course(base, course.activity_id)}>{course.name}</a>
        </h3>
        {course.summary ? <p className="card-summary">{course.summary}</p> : null}
        <dl className="facts">
          <div>
            <dt>Price</dt>
            <dd>{priceText(course.price_cents, course.free)}</dd>
          </div>
          <div>
            <dt>Next session</dt>
            <dd>{nextSession(course, zone)}</dd>
          </div>
          <div>
            <dt>Location</dt>
            <dd>{course.location_name}</dd>
          </div>
        </dl>
      </div>
    </li>
  );
}

function ProductCard({ product }: { product: PublicProduct }) {
  return (
    <li className="card">
      {product.image_url ? (
        <img className="card-image" src={product.image_url} alt="" loading="lazy" />
      ) : null}
      <div className="card-body">
        <h3 className="card-title">
          <a href={product.url}>{product.name}</a>
        </h3>
        <p className="card-kind">{KIND_LABEL[product.kind]}</p>
        {product.description ? <p className="card-summary">{product.description}</p> : null}
        <p className="card-price">{productPriceText(product)}</p>
      </div>
    </li>
  );
}

/** /s/{slug}: the studio's published courses and its products. */
export function StoreHomePage({ data: store, base }: PageProps<PublicStore>) {
  return (
    <Layout base={base} storeName={store.name}>
      <h1>{store.name}</h1>
      <section aria-labelledby="courses-heading">
        <h2 id="courses-heading">Courses</h2>
        {store.courses.length ? (
          <ul className="cards">
            {store.courses.map((course) => (
              <CourseCard key={course.activity_id} course={course} base={base} zone={store.timezone} />
            ))}
          </ul>
        ) : (
          <p>No courses are open for booking right now.</p>
        )}
      </section>
      {store.products.length ? (
        <section aria-labelledby="products-heading">
          <h2 id="products-heading">Products</h2>
          <ul className="cards">
            {store.products.map((product) => (
              <ProductCard key={product.product_id} product={product} />
            ))}
          </ul>
        </section>
      ) : null}
    </Layout>
  );
}
