import type { PublicCourse, PublicSession } from '@studio/contracts';
import { formatDuration } from '@studio/contracts/src/time';
import { useState } from 'react';
import { FEW_SEATS, priceText, seatsText, sessionWhen } from '../format';
import { appLinks } from '../links';
import type { PageProps } from '../types';
import { AppointmentCalendar } from './appointment-calendar';
import { Layout } from './layout';

/** The course's pictures: the first large, the others as buttons that show them. */
function Gallery({ images, name }: { images: string[]; name: string }) {
  const [shown, setShown] = useState(0);
  if (!images.length) return null;
  return (
    <div className="gallery">
      <img
        className="gallery-main"
        src={images[shown]}
        alt={images.length > 1 ? `${name}, picture ${shown + 1} of ${images.length}` : name}
      />
      {images.length > 1 ? (
        <ul className="gallery-thumbs" aria-label="Pictures">
          {images.map((image, index) => (
            <li key={image}>
              <button
                type="button"
                aria-pressed={index === shown}
                aria-label={`Show picture ${index + 1} of ${images.length}`}
                onClick={() => setShown(index)}
              >
                <img src={image} alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function Session({ session, course, base }: { session: PublicSession; course: PublicCourse; base: string }) {
  const when = sessionWhen(session);
  const soldOut = session.sold_out || session.seats_left <= 0;
  const seatsClass = soldOut ? 'seats sold-out' : session.seats_left <= FEW_SEATS ? 'seats few' : 'seats';
  return (
    <li className="session">
      <div className="session-when">
        <p className="session-date">{when.date}</p>
        <p className="session-time">{when.time}</p>
        {session.location_name !== course.location.name || session.online !== course.location.online ? (
          <p className="session-place">{session.online ? 'Online' : session.location_name}</p>
        ) : null}
      </div>
      <p className="session-price">{priceText(session.price_cents, course.free)}</p>
      <p className={seatsClass}>{seatsText(session)}</p>
      {soldOut ? (
        <a className="button secondary" href={appLinks.waitlist(base, session.event_id)}>
          Join the waitlist<span className="visually-hidden">{` for ${when.date}, ${when.time}`}</span>
        </a>
      ) : (
        <a className="button" href={appLinks.checkoutSession(base, session.event_id)}>
          Book<span className="visually-hidden">{` ${when.date}, ${when.time}`}</span>
        </a>
      )}
    </li>
  );
}

function Sessions({ course, base }: { course: PublicCourse; base: string }) {
  const appointment = course.activity_type === 'appointment';
  // An appointment course: the student picks a free time (issue 22).
  if (appointment) return <AppointmentCalendar course={course} base={base} />;
  if (!course.sessions.length)
    return <p>No upcoming sessions are scheduled.</p>;
  return (
    <ul className="sessions">
      {course.sessions.map((session) => (
        <Session key={session.event_id} session={session} course={course} base={base} />
      ))}
    </ul>
  );
}

/** A description's paragraphs, as its author separated them by blank lines. */
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((part) => part.trim())
    .filter(Boolean);

/** /s/{slug}/activity/{id}: a published course, its upcoming sessions and a Book link for each. */
export function CoursePage({ data: course, base }: PageProps<PublicCourse>) {
  const images = course.images.length ? course.images : course.image_url ? [course.image_url] : [];
  const location = course.location;
  return (
    <Layout base={base}>
      <article className="course">
        <h1>{course.name}</h1>
        <Gallery images={images} name={course.name} />
        <dl className="facts course-facts">
          <div>
            <dt>Price</dt>
            <dd>{priceText(course.price_cents, course.free)}</dd>
          </div>
          <div>
            <dt>Level</dt>
            <dd>{course.level}</dd>
          </div>
          {course.category ? (
            <div>
              <dt>Category</dt>
              <dd>{course.category}</dd>
            </div>
          ) : null}
          {course.duration_mins ? (
            <div>
              <dt>Duration</dt>
              <dd>{formatDuration(course.duration_mins)}</dd>
            </div>
          ) : null}
          <div>
            <dt>Location</dt>
            <dd>{location.online ? 'Online' : location.name}</dd>
          </div>
        </dl>

        <section aria-labelledby="sessions-heading">
          <h2 id="sessions-heading">
            {course.activity_type === 'appointment' ? 'Book a time' : 'Upcoming sessions'}
          </h2>
          <Sessions course={course} base={base} />
        </section>

        <section aria-labelledby="about-heading">
          <h2 id="about-heading">About this course</h2>
          {paragraphs(course.description).map((text, index) => (
            <p key={index} className="prose">
              {text}
            </p>
          ))}
        </section>

        {course.tools.trim() ? (
          <section aria-labelledby="tools-heading">
            <h2 id="tools-heading">What to bring</h2>
            <p className="prose">{course.tools}</p>
          </section>
        ) : null}

        <section aria-labelledby="instructor-heading">
          <h2 id="instructor-heading">Instructor</h2>
          <div className="person">
            {course.instructor.photo_url ? (
              <img className="person-photo" src={course.instructor.photo_url} alt={course.instructor.name} />
            ) : null}
            <p>{course.instructor.name}</p>
          </div>
        </section>

        <section aria-labelledby="location-heading">
          <h2 id="location-heading">Location</h2>
          {location.online ? (
            <p>Online. The link to join is sent with your booking confirmation.</p>
          ) : (
            <address className="place">
              {location.name}
              {location.address ? (
                <>
                  <br />
                  {location.address}
                </>
              ) : null}
            </address>
          )}
        </section>

        <section aria-labelledby="policies-heading">
          <h2 id="policies-heading">Policies</h2>
          <h3>Cancellation: {course.cancellation_policy.name}</h3>
          <p>{course.cancellation_policy.rule}</p>
          <h3>Rescheduling: {course.rescheduling_policy.name}</h3>
          <p>{course.rescheduling_policy.rule}</p>
          {course.requires_waiver ? <p>You sign the studio&apos;s waiver when you book.</p> : null}
        </section>
      </article>
    </Layout>
  );
}
