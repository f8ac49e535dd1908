import type { UserStatus } from './dataset.js';

/** A demo user beyond the two login accounts: who they are and the status they are in. */
export interface DemoPerson {
  name: string;
  email: string;
  status: UserStatus;
}

/**
 * Users 3 to 36 of the demo data, in id order. Names use accents and other scripts' letters so
 * that sorting by code point shows; emails stay ASCII. Addresses the spec's request examples
 * use (grace@, alan@, linus@, uma.user@) are left free so those examples succeed on demo data.
 */
export const DEMO_PEOPLE: readonly DemoPerson[] = [
  { name: 'Liam Chen', email: 'liam.chen@example.com', status: 'ACTIVE' },
  { name: 'Sofia Rossi', email: 'sofia.rossi@example.com', status: 'INACTIVE' },
  { name: 'Mateo García', email: 'mateo.garcia@example.com', status: 'ACTIVE' },
  { name: 'Amara Okafor', email: 'amara.okafor@example.com', status: 'ACTIVE' },
  { name: 'Noah Müller', email: 'noah.mueller@example.com', status: 'ACTIVE' },
  { name: 'Yuki Tanaka', email: 'yuki.tanaka@example.com', status: 'INACTIVE' },
  { name: 'Priya Raman', email: 'priya.raman@example.com', status: 'BLOCKED' },
  { name: 'Lukas Novák', email: 'lukas.novak@example.com', status: 'ACTIVE' },
  { name: 'Chloé Dubois', email: 'chloe.dubois@example.com', status: 'ACTIVE' },
  { name: 'Omar Haddad', email: 'omar.haddad@example.com', status: 'INACTIVE' },
  { name: 'Ingrid Larsen', email: 'ingrid.larsen@example.com', status: 'ACTIVE' },
  { name: 'Diego Álvarez', email: 'diego.alvarez@example.com', status: 'ACTIVE' },
  { name: 'Fatima Zahra', email: 'fatima.zahra@example.com', status: 'INACTIVE' },
  { name: 'Henrik Johansson', email: 'henrik.johansson@example.com', status: 'ACTIVE' },
  { name: 'Mei Lin', email: 'mei.lin@example.com', status: 'BLOCKED' },
  { name: 'Kwame Mensah', email: 'kwame.mensah@example.com', status: 'ACTIVE' },
  { name: 'Elena Petrova', email: 'elena.petrova@example.com', status: 'ACTIVE' },
  { name: "Tomás O'Brien", email: 'tomas.obrien@example.com', status: 'INACTIVE' },
  { name: 'Aisha Bello', email: 'aisha.bello@example.com', status: 'ACTIVE' },
  { name: 'Jonas Weber', email: 'jonas.weber@example.com', status: 'ACTIVE' },
  { name: 'Zoë Martin', email: 'zoe.martin@example.com', status: 'INACTIVE' },
  { name: 'Ravi Patel', email: 'ravi.patel@example.com', status: 'ACTIVE' },
  { name: 'Hana Kim', email: 'hana.kim@example.com', status: 'BLOCKED' },
  { name: 'Pierre Lefèvre', email: 'pierre.lefevre@example.com', status: 'ACTIVE' },
  { name: 'Nadia Ivanova', email: 'nadia.ivanova@example.com', status: 'ACTIVE' },
  { name: 'Samuel Adeyemi', email: 'samuel.adeyemi@example.com', status: 'INACTIVE' },
  { name: 'Lucía Fernández', email: 'lucia.fernandez@example.com', status: 'ACTIVE' },
  { name: 'Oskar Nilsson', email: 'oskar.nilsson@example.com', status: 'ACTIVE' },
  { name: 'Beatriz Souza', email: 'beatriz.souza@example.com', status: 'ACTIVE' },
  { name: 'Ahmed Karim', email: 'ahmed.karim@example.com', status: 'BLOCKED' },
  { name: 'Emily Clarke', email: 'emily.clarke@example.com', status: 'ACTIVE' },
  { name: 'Ethan Brooks', email: 'ethan.brooks@example.com', status: 'INACTIVE' },
  { name: 'Marta Kowalska', email: 'marta.kowalska@example.com', status: 'ACTIVE' },
  { name: 'Ólafur Sigurðsson', email: 'olafur.sigurdsson@example.com', status: 'ACTIVE' },
];

/** Products of each category (by category id), the first one of an order naming the order. */
export const DEMO_PRODUCTS: Readonly<Record<number, readonly string[]>> = {
  1: ['Clean Code', 'Dune', 'The Hobbit', 'Design Patterns', 'Cookbook of Seasons', 'Bookmark'],
  2: ['Wireless mouse', 'USB-C hub', 'Mechanical keyboard', 'Webcam', 'E-reader', 'Power bank'],
  3: ['Linen shirt', 'Rain jacket', 'Wool socks', 'Running shoes', 'Denim jeans', 'Scarf'],
  4: ['Desk lamp', 'Garden hose', 'Plant pot', 'Throw blanket', 'Kitchen scale', 'LED bulb'],
  5: ['Wooden train set', 'Puzzle 1000 pieces', 'Kite', 'Building blocks', 'Plush bear', 'Yo-yo'],
};
