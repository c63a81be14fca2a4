// The OpenAPI tag every operation of the customer portal is filed under, one file per resource beside this one.
export const PORTAL_TAG = 'customer_portal';
